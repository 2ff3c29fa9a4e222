import GeoKit
import MapCamera
import MapScene
import Testing

/// A pick on any part of a `MultiPolygon` or `MultiPolyline` reports the set, as a pick on that
/// part drawn alone would.
@Suite struct MultiShapePickingTests {
    static let camera = Camera(center: LatLng(lat: 46, lon: 7), zoom: 14, size: ScreenSize(width: 400, height: 400))

    func square(_ lat: Double, _ lon: Double) throws -> GeoPath {
        try GeoPath(coordinates: [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.002),
                                  LatLng(lat: lat + 0.001, lon: lon + 0.002), LatLng(lat: lat + 0.001, lon: lon)])
    }

    @Test func aPickInAnyPartReportsTheSet() throws {
        let set = PolygonSet([PolygonRings(exterior: try square(45.996, 6.994)), PolygonRings(exterior: try square(46.002, 7.003))])
        let overlays: [Overlay] = [.marker(try Marker(position: LatLng(lat: 45.99, lon: 6.99))),
                                   .multiPolygon(MultiPolygon(polygons: set))]
        let picker = Picker()
        for (part, centre) in [LatLng(lat: 45.9965, lon: 6.995), LatLng(lat: 46.0025, lon: 7.004)].enumerated() {
            let s = try #require(Self.camera.project(centre))
            let pick = try #require(picker.pick(overlays, at: s, camera: Self.camera))
            #expect(pick.kind == .polygon && pick.overlay == 1 && pick.screenDistance == 0 && pick.part == part)
        }
        // Between the parts: nothing within the tolerance.
        let between = try #require(Self.camera.project(LatLng(lat: 46.0, lon: 7.0)))
        #expect(picker.pick(overlays, at: between, camera: Self.camera) == nil)
    }

    @Test func aPickNearALineReportsTheSetAndThatLine() throws {
        let a = try GeoPath(coordinates: [LatLng(lat: 45.998, lon: 6.99), LatLng(lat: 45.998, lon: 7.01)])
        let b = try GeoPath(coordinates: [LatLng(lat: 46.002, lon: 6.99), LatLng(lat: 46.002, lon: 7.01)])
        let line = MultiPolyline(paths: PathSet([a, b]), style: LineStyle(width: .pixels(4)))
        let picker = Picker()
        let on = try #require(Self.camera.project(LatLng(lat: 46.002, lon: 7.0)))
        let pick = try #require(picker.pick([.multiPolyline(line)], at: ScreenPoint(x: on.x, y: on.y + 3), camera: Self.camera))
        #expect(pick.kind == .route && pick.overlay == 0 && pick.part == 1)
        // 3 px off the centre line (the distance a route's pick reports; its half width widens the
        // tolerance).
        #expect(abs(pick.screenDistance - 3) < 1e-6)
        #expect(abs(pick.position.lat - 46.002) < 1e-5)
    }

    func polygon(_ i: Int, fill: Color = Color(rgb: 0x8A6D3B), stroke: Color? = nil) throws -> Overlay {
        .polygon(Polygon(exterior: try square(46 + Double(i) * 0.002, 7), fill: fill, stroke: stroke))
    }

    func line(_ i: Int, _ style: LineStyle) throws -> Overlay {
        .polyline(Polyline(path: try GeoPath(coordinates: [LatLng(lat: 46 + Double(i) * 0.001, lon: 7), LatLng(lat: 46 + Double(i) * 0.001, lon: 7.01)]),
                           style: style))
    }

    func kinds(_ overlays: [Overlay]) -> [String] {
        overlays.map { o in
            switch o {
            case .polygon: "polygon"
            case .polyline: "line"
            case .multiPolygon(let m): "polygons\(m.polygons.polygons.count)"
            case .multiPolyline(let m): "lines\(m.paths.paths.count)"
            default: "other"
            }
        }
    }

    /// Only shapes that draw the same one by one and together are merged, in runs, in order.
    @Test func alikeOpaqueRunsAreMergedAndNothingElse() throws {
        let brown = Color(rgb: 0x8A6D3B)
        var overlays: [Overlay] = try (0 ..< 5).map { try polygon($0) }
        overlays.append(.marker(try Marker(position: LatLng(lat: 46, lon: 7))))
        overlays += try (0 ..< 2).map { try polygon($0) }                              // a run too short
        overlays += try (0 ..< 4).map { try polygon($0, fill: Color(rgb: 0x8A6D3B, alpha: 0x80)) } // translucent
        overlays += try (0 ..< 4).map { try polygon($0, fill: brown, stroke: .black) }  // outlined
        overlays += try (0 ..< 3).map { try polygon($0, fill: Color(rgb: 0x123456)) }  // another colour
        let solid = LineStyle(width: .pixels(3), color: Color(rgb: 0x1F6FEB))
        overlays += try (0 ..< 4).map { try line($0, solid) }
        var cased = solid
        cased.casingColor = .white
        overlays += try (0 ..< 4).map { try line($0, cased) }
        let merged = Overlay.mergingAlikeRuns(overlays, minimumRun: 3)
        // The two short-run squares lie under the first two translucent ones (another colour):
        // they stay apart, in order, and the four translucent ones, apart, make a set; so do the
        // four outlined ones (one opaque outline) and the three of another colour.
        #expect(kinds(merged) == ["polygons5", "other", "polygon", "polygon", "polygons4", "polygons4", "polygons3", "lines4"]
                    + Array(repeating: "line", count: 4))
        // The merged set keeps the parts' order and geometry.
        guard case .multiPolygon(let m) = merged[0], case .polygon(let p3) = overlays[3] else { Issue.record("kinds"); return }
        #expect(m.polygons.polygons[3].exterior === p3.exterior && m.fill == brown)
        // Timed lines keep their times for picks; by default runs under 64 are left alone (the
        // translucent squares too: they lie apart).
        var timed = try (0 ..< 4).map { try line($0, solid) }
        for k in timed.indices { if case .polyline(var l) = timed[k] { l.times = [0, 1]; timed[k] = .polyline(l) } }
        #expect(kinds(Overlay.mergingAlikeRuns(timed, minimumRun: 3)) == Array(repeating: "line", count: 4))
        #expect(kinds(Overlay.mergingAlikeRuns(overlays)) == kinds(overlays))
        // Translucent polygons without outline that may share an edge (bounds that meet) become
        // sets however few, one a colour, to be drawn in one layer without seams; alone, or
        // outlined, they stay as they are.
        let glass = Color(rgb: 0x8A6D3B, alpha: 0x80), tinted = Color(rgb: 0x1F6FEB, alpha: 0x80)
        func abutting(_ i: Int, _ fill: Color, stroke: Color? = nil) throws -> Overlay {
            .polygon(Polygon(exterior: try square(46 + Double(i) * 0.001, 7), fill: fill, stroke: stroke))
        }
        #expect(kinds(Overlay.mergingAlikeRuns([try abutting(0, glass), try abutting(1, tinted), try abutting(2, glass)]))
                    == ["polygons2", "polygons1"])
        #expect(kinds(Overlay.mergingAlikeRuns([try abutting(0, glass)])) == ["polygon"])
        #expect(kinds(Overlay.mergingAlikeRuns([try abutting(0, glass, stroke: .black), try abutting(1, glass, stroke: .black)]))
                    == ["polygon", "polygon"])
        // Opaque ones so too where two colours or more may share an edge (their sets share a
        // layer at opacity 1, so that each colour takes its share of the pixels on an edge
        // between two); of one colour, or apart, they stay as they are.
        let brick = Color(rgb: 0x8A6D3B), sky = Color(rgb: 0x1F6FEB)
        let opaque = Overlay.mergingAlikeRuns([try abutting(0, brick), try abutting(1, sky), try abutting(2, brick)])
        #expect(kinds(opaque) == ["polygons2", "polygons1"])
        let opaqueLayers = opaque.compactMap { o -> Int? in if case .multiPolygon(let m) = o { m.layer } else { nil } }
        #expect(opaqueLayers.count == 2 && Set(opaqueLayers).count == 1)
        #expect(kinds(Overlay.mergingAlikeRuns([try abutting(0, brick), try abutting(1, brick)])) == ["polygon", "polygon"])
        #expect(kinds(Overlay.mergingAlikeRuns([try abutting(0, brick), try abutting(3, sky)])) == ["polygon", "polygon"])
        // (A run of 64 opaque polygons of one colour is a set, without a layer.)
        let sameColour = Overlay.mergingAlikeRuns(try (0 ..< 64).map { try abutting($0, brick) })
        #expect(kinds(sameColour) == ["polygons64"])
        if case .multiPolygon(let m) = sameColour.first { #expect(m.layer == nil) }
        // Long runs are cut into sets of at most `maximumSet`.
        let many = try (0 ..< 10).map { try polygon($0) }
        #expect(kinds(Overlay.mergingAlikeRuns(many, minimumRun: 3, maximumSet: 4)) == ["polygons4", "polygons4", "polygons2"])
    }

    /// A choropleth: a 12 × 12 grid of touching translucent squares in three colours in file
    /// order, outlined alike, becomes three sets (each colour's squares, in order); squares that
    /// overlap one before them (another colour, or the same translucent colour) start a new group,
    /// and translucent outlines keep polygons apart.
    @Test func translucentPolygonsApartAreGroupedByColour() throws {
        let colours = [Color(rgb: 0xD7301F, alpha: 0x99), Color(rgb: 0xFC8D59, alpha: 0x99), Color(rgb: 0xFDCC8A, alpha: 0x99)]
        func cell(_ i: Int, _ j: Int, shift: Double = 0) throws -> GeoPath {
            let lat = 46 + Double(i) * 0.001 + shift, lon = 7 + Double(j) * 0.001
            return try GeoPath(coordinates: [LatLng(lat: lat, lon: lon), LatLng(lat: lat, lon: lon + 0.001),
                                             LatLng(lat: lat + 0.001, lon: lon + 0.001), LatLng(lat: lat + 0.001, lon: lon)])
        }
        var grid: [Overlay] = []
        for i in 0 ..< 12 {
            for j in 0 ..< 12 {
                grid.append(.polygon(Polygon(exterior: try cell(i, j), fill: colours[(i * 7 + j * 5) % 3], stroke: .black, strokeWidth: 1)))
            }
        }
        let merged = Overlay.mergingAlikeRuns(grid, minimumRun: 8)
        #expect(kinds(merged) == ["polygons48", "polygons48", "polygons48"])
        // In the order the colours first come: (0, 0), (0, 1), (0, 2).
        #expect(merged.compactMap { o -> Color? in if case .multiPolygon(let m) = o { m.fill } else { nil } }
                    == [colours[0], colours[2], colours[1]])
        for o in merged {
            guard case .multiPolygon(let m) = o else { continue }
            #expect(m.stroke == .black && m.strokeWidth == 1)
            // Each set's parts are the squares of its colour in file order.
            let own = grid.compactMap { o -> GeoPath? in
                guard case .polygon(let p) = o, p.fill == m.fill else { return nil }
                return p.exterior
            }
            #expect(m.polygons.polygons.map { ObjectIdentifier($0.exterior) } == own.map { ObjectIdentifier($0) })
        }
        // Square (10, 0) shifted half a cell onto the one below it: a new group from there on,
        // whose 24 squares are too few of each colour for sets.
        var shifted = grid
        shifted[120] = .polygon(Polygon(exterior: try cell(10, 0, shift: -0.0005), fill: colours[0], stroke: .black, strokeWidth: 1))
        let split = Overlay.mergingAlikeRuns(shifted, minimumRun: 20)
        #expect(kinds(split) == ["polygons40", "polygons40", "polygons40"] + Array(repeating: "polygon", count: 24))
        // The same with translucent outlines: left alone.
        let thin = grid.map { o -> Overlay in
            guard case .polygon(var p) = o else { return o }
            p.stroke = Color(rgb: 0, alpha: 0x80)
            return .polygon(p)
        }
        #expect(kinds(Overlay.mergingAlikeRuns(thin, minimumRun: 8)) == kinds(thin))
        // Opaque squares of one colour without outline may overlap: one set, as before.
        let stacked = try (0 ..< 10).map { i in Overlay.polygon(Polygon(exterior: try cell(0, 0, shift: Double(i) * 0.0001), fill: .black)) }
        #expect(kinds(Overlay.mergingAlikeRuns(stacked, minimumRun: 8)) == ["polygons10"])
        // The same squares translucent: every one overlaps the one before, nothing merges.
        let glass = try (0 ..< 10).map { i in
            Overlay.polygon(Polygon(exterior: try cell(0, 0, shift: Double(i) * 0.0001), fill: colours[0]))
        }
        #expect(kinds(Overlay.mergingAlikeRuns(glass, minimumRun: 2)) == kinds(glass))
    }

    /// Thin parallel diagonal strips, outlined: apart, but each one's bounds overlap every
    /// other's. Ten make one set; of 2 000, a strip is tested against at most 16 before it
    /// starts a new group, so groups hold 17 and none reaches 64: left as they are, in order (and
    /// quickly). Without outline, translucent, each group of 17 is a set in a layer of its own.
    @Test func overlapTestsAreCappedPerPolygon() throws {
        func strips(_ n: Int, outlined: Bool = true) throws -> [Overlay] {
            try (0 ..< n).map { k in
                let o = Double(k) * 1e-5
                let ring = try GeoPath(coordinates: [LatLng(lat: 46, lon: 7 + o), LatLng(lat: 46, lon: 7 + o + 9.5e-6),
                                                     LatLng(lat: 46.1, lon: 7.1 + o + 9.5e-6), LatLng(lat: 46.1, lon: 7.1 + o)])
                return .polygon(Polygon(exterior: ring, fill: Color(rgb: 0xD7301F, alpha: 0x99), stroke: outlined ? .black : nil))
            }
        }
        #expect(kinds(Overlay.mergingAlikeRuns(try strips(10), minimumRun: 2)) == ["polygons10"])
        #expect(kinds(Overlay.mergingAlikeRuns(try strips(40), minimumRun: 17)) == ["polygons17", "polygons17"] + Array(repeating: "polygon", count: 6))
        let many = try strips(2000)
        #expect(kinds(Overlay.mergingAlikeRuns(many)) == kinds(many))
        let glass = Overlay.mergingAlikeRuns(try strips(40, outlined: false))
        #expect(kinds(glass) == ["polygons17", "polygons17", "polygons6"])
        let layers = glass.compactMap { o -> Int? in if case .multiPolygon(let m) = o { m.layer } else { nil } }
        #expect(layers.count == 3 && Set(layers).count == 3)
    }

    /// Picking a set tries only the parts near the pointer: the same picks as every part tried,
    /// flat and pitched, turned, inside parts, near their outlines and between them.
    @Test(arguments: [(0.0, 0.0), (40.0, 60.0)]) func nearbyPartsOnlyPickTheSame(_ bearing: Double, _ pitch: Double) throws {
        let camera = Camera(center: LatLng(lat: 46, lon: 7), zoom: 15, bearing: bearing, pitch: pitch,
                            size: ScreenSize(width: 400, height: 400))
        let rings = try (0 ..< 400).map { i in
            PolygonRings(exterior: try square(45.996 + Double(i / 20) * 0.0004, 6.994 + Double(i % 20) * 0.0006))
        }
        let lines = PathSet(rings.map(\.exterior))
        let sets: [Overlay] = [.multiPolygon(MultiPolygon(polygons: PolygonSet(rings), stroke: .black, strokeWidth: 3)),
                               .multiPolyline(MultiPolyline(paths: lines, style: LineStyle(width: .pixels(5))))]
        let picker = Picker()
        var hits = 0
        for set in sets {
            for x in stride(from: 0.0, through: 400, by: 23) {
                for y in stride(from: 0.0, through: 400, by: 19) {
                    let s = ScreenPoint(x: x, y: y)
                    let fast = picker.pick([set], at: s, camera: camera)
                    // Every part tried, one by one, as the set would without its filter.
                    var slow: Pick?
                    let count = if case .multiPolygon = set { rings.count } else { lines.paths.count }
                    for j in 0 ..< count {
                        let part: Overlay = switch set {
                        case .multiPolygon(let m): .polygon(m.part(j))
                        case .multiPolyline(let m): .polyline(m.part(j))
                        default: set
                        }
                        if var p = picker.pick([part], at: s, camera: camera), p.screenDistance < (slow?.screenDistance ?? .infinity) {
                            p.part = j
                            slow = p
                            if p.screenDistance == 0, case .multiPolygon = set { break }
                        }
                    }
                    #expect(fast?.part == slow?.part && fast?.screenDistance == slow?.screenDistance, "\(x), \(y)")
                    if fast != nil { hits += 1 }
                }
            }
        }
        #expect(hits > 100)
    }
}

