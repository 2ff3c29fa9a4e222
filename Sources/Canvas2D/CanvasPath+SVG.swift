import MapFormats

extension CanvasPath {
    /// An SVG path (`MapFormats.SVGPath`, in its own units) scaled by `scale` and moved by
    /// `offset` (logical px): `x · scale + offset.x`, likewise y.
    public init(_ svg: SVGPath, scale: Double, offset: CanvasPoint = CanvasPoint(x: 0, y: 0)) {
        self.init()
        func point(_ p: SVGPath.Point) -> CanvasPoint { CanvasPoint(x: offset.x + p.x * scale, y: offset.y + p.y * scale) }
        for e in svg.elements {
            switch e {
            case .move(let p): move(to: point(p))
            case .line(let p): addLine(to: point(p))
            case .cubic(let c1, let c2, let p): addCurve(to: point(p), control1: point(c1), control2: point(c2))
            case .close: closeSubpath()
            }
        }
    }
}
