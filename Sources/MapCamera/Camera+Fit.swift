import Foundation
import GeoKit

// Fitting, as a small linear programme.
//
// For a given bearing and pitch (and viewport), the padded viewport seen on the ground is a
// fixed convex quadrilateral T in world pixels around the centre (rotated by the bearing);
// zooming scales it by 1/worldSize and moving the centre translates it. With the points q
// rotated the same way and measured in world units, the camera fits when every q − v lies in
// λ·T, λ = 1/worldSize and v the rotated centre. For each edge i of T (outward normal n_i,
// offset h_i = n_i·corner) that is n_i·q − n_i·v ≤ λ·h_i, so only M_i = max_q n_i·q matters:
// four linear constraints in (λ, v). The smallest λ sits where three of them are tight; then
// the centre is placed in the middle of the region of v that satisfies all four at that λ
// (at pitch 0 and bearing 0: the Mercator midpoint of the bounds).

extension Camera {
    /// The camera that shows every point inside the viewport inset by `padding`, at the given
    /// bearing and pitch, as close as possible but never past `maxZoom`; nil when there are no
    /// points, a point or value is not finite, or the padding leaves no room.
    ///
    /// At least one point touches the padded viewport (unless `maxZoom` stops the zoom). The
    /// fitted camera has no padding of its own: its centre of perspective is the viewport
    /// centre. Longitudes are taken along the shorter way round (a set of points across the
    /// antimeridian is fitted across it). With steep pitch, where the far plane cuts the ground
    /// below the top edge, the top of the fitted area is that far-plane line. At pitch 0 a view
    /// no taller than the world is kept inside its edges at ±85.05° as far as the points allow,
    /// the padding giving way where it alone would keep the view past an edge.
    public static func fitting(
        _ points: [LatLng], size: ScreenSize, padding: EdgeInsets = .zero,
        bearing: Double = 0, pitch: Double = 0, maxZoom: Double = 22
    ) -> Camera? {
        guard !points.isEmpty, points.allSatisfy({ $0.lat.isFinite && $0.lon.isFinite }),
            bearing.isFinite, pitch.isFinite, maxZoom.isFinite,
            size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0,
            [padding.top, padding.left, padding.bottom, padding.right].allSatisfy({ $0.isFinite && $0 >= 0 }),
            padding.left + padding.right < size.width, padding.top + padding.bottom < size.height
        else { return nil }

        var cam = Camera(
            center: LatLng(lat: 0, lon: 0), zoom: 0, bearing: bearing,
            pitch: min(max(pitch, 0), Camera.maxSupportedPitch), size: size)
        // The padded viewport on the ground, world pixels, in the rotated frame (x1, y1).
        let top = max(padding.top, cam.topGroundY)
        guard top < size.height - padding.bottom else { return nil }
        // A screen rectangle's corners on the ground; nil if one is above the horizon.
        func groundCorners(left: Double, top: Double, right: Double, bottom: Double) -> [(Double, Double)]? {
            var corners: [(Double, Double)] = []
            for (x, y) in [(left, top), (right, top), (right, bottom), (left, bottom)] {
                guard let g = cam.rotatedGroundOffset(at: ScreenPoint(x: x, y: y)) else { return nil }
                corners.append(g)
            }
            return corners
        }
        guard let corners = groundCorners(
            left: padding.left, top: top, right: size.width - padding.right, bottom: size.height - padding.bottom)
        else { return nil }

        // Points in world units, unwrapped the shorter way round, rotated into the same frame.
        let xs = unwrappedMercatorX(points.map(\.lon))
        let a = cam.angle
        let raw = zip(xs, points).map { x, p in (x, Camera.mercatorY(latitude: p.lat)) }
        // Work relative to the points' mean and in units of their extent, for conditioning.
        let meanX = raw.map(\.0).reduce(0, +) / Double(raw.count)
        let meanY = raw.map(\.1).reduce(0, +) / Double(raw.count)
        let extent = max(
            (raw.map(\.0).max() ?? 0) - (raw.map(\.0).min() ?? 0),
            (raw.map(\.1).max() ?? 0) - (raw.map(\.1).min() ?? 0))
        let unit = extent > 0 ? extent : 1
        let q = raw.map { p -> (Double, Double) in
            let dx = (p.0 - meanX) / unit, dy = (p.1 - meanY) / unit
            return (cos(a) * dx - sin(a) * dy, sin(a) * dx + cos(a) * dy)
        }

        // Edge constraints: n·v + λ·h ≥ M  (n outward; T is clockwise on screen, y down).
        typealias Edge = (nx: Double, ny: Double, h: Double, m: Double)
        func edgesOf(_ corners: [(Double, Double)]) -> [Edge]? {
            var edges: [Edge] = []
            for i in 0..<4 {
                let p0 = corners[i], p1 = corners[(i + 1) % 4]
                var nx = p1.1 - p0.1, ny = -(p1.0 - p0.0)
                let len = (nx * nx + ny * ny).squareRoot()
                guard len > 0 else { return nil }
                nx /= len; ny /= len
                // Orient outward: the opposite corners must lie on the inner side.
                let other = corners[(i + 2) % 4]
                if nx * (other.0 - p0.0) + ny * (other.1 - p0.1) > 0 { nx = -nx; ny = -ny }
                let h = nx * p0.0 + ny * p0.1
                let m = q.map { nx * $0.0 + ny * $0.1 }.max() ?? 0
                edges.append((nx, ny, h, m))
            }
            return edges
        }
        guard let edges = edgesOf(corners) else { return nil }

        // λ in extent units per world pixel; the smallest λ over the vertices of the LP.
        let tol = 1e-12
        func feasible(_ lam: Double, _ vx: Double, _ vy: Double, _ edges: [Edge]) -> Bool {
            edges.allSatisfy { $0.m - ($0.nx * vx + $0.ny * vy) - lam * $0.h <= 1e-9 * max(1, abs(lam * $0.h)) }
        }
        var best = Double.infinity
        for skip in 0..<4 {
            let e = edges.enumerated().filter { $0.offset != skip }.map(\.element)
            // Solve [h nx ny] · (λ, vx, vy) = m for three edges (Cramer's rule).
            let det = det3(e[0].h, e[0].nx, e[0].ny, e[1].h, e[1].nx, e[1].ny, e[2].h, e[2].nx, e[2].ny)
            guard abs(det) > tol else { continue }
            let lam = det3(e[0].m, e[0].nx, e[0].ny, e[1].m, e[1].nx, e[1].ny, e[2].m, e[2].nx, e[2].ny) / det
            let vx = det3(e[0].h, e[0].m, e[0].ny, e[1].h, e[1].m, e[1].ny, e[2].h, e[2].m, e[2].ny) / det
            let vy = det3(e[0].h, e[0].nx, e[0].m, e[1].h, e[1].nx, e[1].m, e[2].h, e[2].nx, e[2].m) / det
            if lam >= -tol, feasible(lam, vx, vy, edges), lam < best { best = max(lam, 0) }
        }
        guard best.isFinite else { return nil }

        // Zoom from λ: q/unit − v ∈ λ·T means worldSize = 1/(λ·unit). Clamp to maxZoom (a
        // single point gives λ = 0).
        let zoomFit = best > 0 ? log2(1 / (best * unit * 512)) : Double.infinity
        let zoom = min(zoomFit, maxZoom)
        let lam = 1 / (unit * 512 * pow(2, zoom))

        // The middle of the feasible centres at that λ: average the vertices of the region
        // {v : n_i·v ≥ M_i − λ·h_i}.
        func vertices(_ edges: [Edge]) -> [(Double, Double)] {
            var vertices: [(Double, Double)] = []
            for i in 0..<4 {
                for j in (i + 1)..<4 {
                    let e1 = edges[i], e2 = edges[j]
                    let det = e1.nx * e2.ny - e1.ny * e2.nx
                    guard abs(det) > 1e-9 else { continue }
                    let r1 = e1.m - lam * e1.h, r2 = e2.m - lam * e2.h
                    let vx = (r1 * e2.ny - e1.ny * r2) / det
                    let vy = (e1.nx * r2 - r1 * e2.nx) / det
                    if feasible(lam, vx, vy, edges) { vertices.append((vx, vy)) }
                }
            }
            return vertices
        }
        let region = vertices(edges)
        guard !region.isEmpty else { return nil }
        var vx = region.map(\.0).reduce(0, +) / Double(region.count)
        var vy = region.map(\.1).reduce(0, +) / Double(region.count)
        // Rotate back and undo the normalisation.
        func mapY(_ x: Double, _ y: Double) -> Double { meanY + unit * (-sin(a) * x + cos(a) * y) }
        if cam.pitch == 0 {
            // Keep the view inside the world's top and bottom edges (±85.05°) where it is not
            // taller than the world, as far as the feasible centres allow: the centre's map y
            // is linear on their convex region, so the centres at the nearest allowed y form a
            // segment (through pairs of its vertices); take that segment's middle. Where the
            // padding keeps the view past the edge (points at the edge, as a polar cap's), the
            // padding gives way: the points then need only be inside the viewport.
            let b = cam.bearing * .pi / 180
            let half = (abs(size.height / 2 * cos(b)) + abs(size.width / 2 * sin(b))) / (512 * pow(2, zoom))
            func outside(_ y: Double) -> Bool { y < half - 1e-12 || y > 1 - half + 1e-12 }
            func nearestInside(_ region: [(Double, Double)], from y0: Double) -> (Double, Double)? {
                let ys = region.map { mapY($0.0, $0.1) }
                guard let yMin = ys.min(), let yMax = ys.max() else { return nil }
                let t = min(max(min(max(y0, half), 1 - half), yMin), yMax)
                var onLine: [(Double, Double)] = []
                for i in region.indices {
                    for j in i..<region.count {
                        let di = ys[i] - t, dj = ys[j] - t
                        if abs(di) < 1e-15 {
                            onLine.append(region[i])
                        } else if di * dj < 0 {
                            let f = di / (di - dj)
                            onLine.append((region[i].0 + f * (region[j].0 - region[i].0),
                                           region[i].1 + f * (region[j].1 - region[i].1)))
                        }
                    }
                }
                // Along the line of equal y: the direction (cos a, sin a) in the rotated frame.
                let along = onLine.map { (cos(a) * $0.0 + sin(a) * $0.1, $0) }
                guard let lo = along.min(by: { $0.0 < $1.0 }), let hi = along.max(by: { $0.0 < $1.0 }) else { return nil }
                return ((lo.1.0 + hi.1.0) / 2, (lo.1.1 + hi.1.1) / 2)
            }
            let y0 = mapY(vx, vy)
            if half <= 0.5, y0.isFinite, outside(y0) {
                if let v = nearestInside(region, from: y0) { (vx, vy) = v }
                // The whole viewport (pitch 0: no far-plane line).
                if outside(mapY(vx, vy)), padding != .zero,
                   let full = groundCorners(left: 0, top: 0, right: size.width, bottom: size.height), let e = edgesOf(full),
                   let v = nearestInside(vertices(e), from: mapY(vx, vy)) {
                    (vx, vy) = v
                }
            }
        }
        let cx = meanX + unit * (cos(a) * vx + sin(a) * vy)
        let cy = mapY(vx, vy)
        let lat = Camera.clampLatitude(Camera.latitude(mercatorY: cy))
        cam.center = LatLng(lat: lat, lon: LatLng.wrapLongitude(cx * 360 - 180))
        cam.zoom = zoom
        cam.bearing = Camera.normalizedBearing(bearing)
        return cam
    }

    /// The camera that shows the bounds (south-west and north-east corners, degrees) inside the
    /// viewport inset by `padding`; see `fitting(_:size:padding:bearing:pitch:maxZoom:)`. A
    /// box whose west longitude is greater than its east crosses the antimeridian.
    public static func fitting(
        southWest sw: LatLng, northEast ne: LatLng, size: ScreenSize, padding: EdgeInsets = .zero,
        bearing: Double = 0, pitch: Double = 0, maxZoom: Double = 22
    ) -> Camera? {
        var east = ne.lon
        if east < sw.lon { east += 360 }
        let corners = [
            LatLng(lat: ne.lat, lon: sw.lon), LatLng(lat: ne.lat, lon: east),
            LatLng(lat: sw.lat, lon: east), LatLng(lat: sw.lat, lon: sw.lon),
        ]
        return fitting(corners, size: size, padding: padding, bearing: bearing, pitch: pitch, maxZoom: maxZoom)
    }

    /// The camera that shows geographic bounds inside the viewport inset by `padding`; see
    /// `fitting(_:size:padding:bearing:pitch:maxZoom:)`. Bounds across the antimeridian
    /// (west > east) are fitted across it.
    public static func fitting(
        _ bounds: GeoBounds, size: ScreenSize, padding: EdgeInsets = .zero,
        bearing: Double = 0, pitch: Double = 0, maxZoom: Double = 22
    ) -> Camera? {
        fitting(
            southWest: LatLng(lat: bounds.south, lon: bounds.west),
            northEast: LatLng(lat: bounds.north, lon: bounds.east),
            size: size, padding: padding, bearing: bearing, pitch: pitch, maxZoom: maxZoom)
    }

    /// The ground under a screen point in world pixels from the centre, in the frame turned
    /// with the map (before the bearing is undone): (x1, y1) of the projection pipeline.
    func rotatedGroundOffset(at s: ScreenPoint) -> (Double, Double)? {
        guard let g = groundOffset(at: s) else { return nil }
        let a = angle
        return (cos(a) * g.px - sin(a) * g.py, sin(a) * g.px + cos(a) * g.py)
    }

    /// Normalised Mercator x of longitudes, unwrapped so that the set takes the shorter way
    /// round: the largest gap between neighbouring longitudes is left outside.
    static func unwrappedMercatorX(_ lons: [Double]) -> [Double] {
        let wrapped = lons.map { LatLng.wrapLongitude($0) }
        let sorted = wrapped.sorted()
        guard sorted.count > 1, let first = sorted.first, let last = sorted.last else {
            return wrapped.map { ($0 + 180) / 360 }
        }
        // Largest gap, the one across ±180 included.
        var gap = first + 360 - last, cut = first  // longitudes < cut move east by 360
        for i in 1..<sorted.count where sorted[i] - sorted[i - 1] > gap {
            gap = sorted[i] - sorted[i - 1]
            cut = sorted[i]
        }
        return wrapped.map { (($0 < cut ? $0 + 360 : $0) + 180) / 360 }
    }
}

/// Determinant of a 3×3 matrix given row by row.
private func det3(
    _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
    _ g: Double, _ h: Double, _ i: Double
) -> Double {
    a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
}
