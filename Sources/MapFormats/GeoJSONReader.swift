import GeoKit

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry of any type.
///
/// LineStrings, each line of a MultiLineString and each ring of a (Multi)Polygon become
/// parts; Points and the points of a MultiPoint become waypoints; GeometryCollections are
/// flattened. A feature's `properties` go to each part and waypoint it yields, and a string
/// `name` property also becomes their name. Members may come in any order; foreign members
/// are read and dropped. A third coordinate is the elevation (metres); further ones are
/// ignored. Errors carry line, column and the JSON path.
struct GeoJSONReader {
    let source: SourceText
    let options: TrackReadOptions

    /// A coordinates value, shaped by its nesting; positions are indices into `positions`.
    private indirect enum Coordinates {
        case position(Int)
        case positions(Range<Int>)
        case lists([Coordinates])
    }

    private struct Position {
        var lon: Double
        var lat: Double
        var elevation: Double?
    }

    /// Any GeoJSON object, as read before its type is known (members come in any order).
    private struct RawObject {
        var at: Int
        var path: [JSONScanner.PathComponent]
        var type: String?
        var typeAt = 0
        var features: [RawObject]?
        var geometry: [RawObject]?  // nil: absent, []: null, [g]: an object
        var geometries: [RawObject]?
        var coordinates: Coordinates?
        var coordinatesAt = 0
        var properties: [String: JSONValue]?
        var name: String?
    }

    /// Coordinate nesting depth (0: a position) and its description, per geometry type.
    private static let shapes: [String: (depth: Int, noun: String)] = [
        "Point": (0, "a position"), "MultiPoint": (1, "an array of positions"),
        "LineString": (1, "an array of positions"), "MultiLineString": (2, "an array of arrays of positions"),
        "Polygon": (2, "an array of rings (arrays of positions)"),
        "MultiPolygon": (3, "an array of polygons (arrays of rings)"),
    ]

    func read() throws -> Track {
        try source.bytes.withUnsafeBufferPointer { p in
            var state = State(
                scanner: JSONScanner(p, source: source, maxDepth: options.maxDepth), maxPoints: options.maxPoints)
            let root = try state.readObject()
            try state.scanner.expectEnd()
            var track = Track(format: .geojson, name: root.name)
            var feature = 0
            try state.emitRoot(root, into: &track, feature: &feature)
            guard !track.parts.isEmpty || !track.waypoints.isEmpty else {
                throw source.named(.noPoints("the GeoJSON has no coordinates"))
            }
            return track
        }
    }

    private struct State {
        var scanner: JSONScanner
        let maxPoints: Int
        var positions: [Position] = []

        init(scanner: JSONScanner, maxPoints: Int) {
            self.scanner = scanner
            self.maxPoints = maxPoints
        }

        // MARK: reading

        mutating func readObject(_ what: String = "a GeoJSON object") throws -> RawObject {
            _ = scanner.peek()
            var raw = RawObject(at: scanner.i, path: scanner.path)
            try scanner.beginObject(what)
            var first = true
            while let key = try scanner.nextKey(&first) {
                scanner.path.append(.key(key))
                switch key {
                case "type":
                    _ = scanner.peek()
                    raw.typeAt = scanner.i
                    raw.type = try scanner.readString()
                case "features":
                    raw.features = try readObjects("an array of features", element: "a Feature object")
                case "geometries":
                    raw.geometries = try readObjects("an array of geometries", element: "a geometry object")
                case "geometry":
                    raw.geometry = scanner.readNull() ? [] : [try readObject("a geometry object or null")]
                case "coordinates":
                    _ = scanner.peek()
                    raw.coordinatesAt = scanner.i
                    raw.coordinates = try readCoordinates()
                case "properties":
                    if !scanner.readNull() {
                        guard scanner.peek() == 0x7B else { throw scanner.unexpected("an object or null") }
                        if case .object(let o) = try scanner.readValue() { raw.properties = o }
                    }
                case "name" where scanner.peek() == 0x22:
                    raw.name = try scanner.readString()
                default:
                    _ = try scanner.readValue()
                }
                scanner.path.removeLast()
            }
            return raw
        }

        private mutating func readObjects(_ what: String, element: String) throws -> [RawObject] {
            try scanner.beginArray(what)
            var list: [RawObject] = []
            var first = true
            while try scanner.nextElement(&first) {
                scanner.path.append(.index(list.count))
                list.append(try readObject(element))
                scanner.path.removeLast()
            }
            return list
        }

        /// Reads a coordinates value of any nesting.
        private mutating func readCoordinates() throws -> Coordinates {
            try scanner.beginArray("an array of coordinates")
            guard let b = scanner.peek() else { throw scanner.unexpected("a coordinate or ']'") }
            if b == 0x5D {
                scanner.i += 1
                scanner.depth -= 1
                return .lists([])
            }
            if b != 0x5B {
                // A position: the '[' is already consumed.
                let index = try readPositionBody()
                return .position(index)
            }
            var first = true
            var k = 0
            scanner.path.append(.index(0))
            defer { scanner.path.removeLast() }
            guard try scanner.nextElement(&first) else { return .lists([]) }
            let head = try readCoordinates()
            if case .position(let start) = head {
                // An array of positions: read the rest straight into `positions`.
                while try scanner.nextElement(&first) {
                    k += 1
                    scanner.path[scanner.path.count - 1] = .index(k)
                    try scanner.beginArray("a position [longitude, latitude]")
                    guard let c = scanner.peek(), c != 0x5B, c != 0x5D else {
                        throw scanner.unexpected("a number (all elements of this array are positions)")
                    }
                    _ = try readPositionBody()
                }
                return .positions(start..<positions.count)
            }
            var children = [head]
            while try scanner.nextElement(&first) {
                k += 1
                scanner.path[scanner.path.count - 1] = .index(k)
                _ = scanner.peek()
                let at = scanner.i
                let child = try readCoordinates()
                if case .position = child {
                    throw scanner.fail(
                        .unexpected("a position", expected: "an array of positions like its siblings"), at)
                }
                children.append(child)
            }
            return .lists(children)
        }

        /// Reads `lon, lat[, elevation, …]]` after the opening '['; returns its index.
        private mutating func readPositionBody() throws -> Int {
            _ = scanner.peek()
            let lonAt = scanner.i
            let lon = try scanner.readNumber("a longitude (number)")
            guard scanner.peek() == 0x2C else {
                if scanner.peek() == 0x5D {
                    throw scanner.fail(.invalid("a position needs a longitude and a latitude, found 1 number"), lonAt)
                }
                throw scanner.unexpected("',' and a latitude")
            }
            scanner.i += 1
            _ = scanner.peek()
            let latAt = scanner.i
            let lat = try scanner.readNumber("a latitude (number)")
            guard lat >= -90 && lat <= 90 else { throw scanner.fail(.latitudeOutOfRange(lat), latAt) }
            var elevation: Double?
            var extra = 0
            while true {
                let b = scanner.peek()
                if b == 0x5D {
                    scanner.i += 1
                    scanner.depth -= 1
                    break
                }
                guard b == 0x2C else { throw scanner.unexpected("',' or ']' in a position") }
                scanner.i += 1
                let v = try scanner.readNumber("an elevation (number)")
                if extra == 0 { elevation = v }
                extra += 1
            }
            guard positions.count < maxPoints else { throw scanner.fail(.tooManyPoints(limit: maxPoints), lonAt) }
            positions.append(Position(lon: lon, lat: lat, elevation: elevation))
            return positions.count - 1
        }

        // MARK: interpreting

        private func fail(_ e: FormatError, _ raw: RawObject, at offset: Int, member: String? = nil) -> FormatError {
            var path = raw.path
            if let member { path.append(.key(member)) }
            return scanner.fail(e, offset, path: path)
        }

        mutating func emitRoot(_ raw: RawObject, into track: inout Track, feature: inout Int) throws {
            guard let type = raw.type else {
                throw fail(.invalid("the object has no \"type\" member"), raw, at: raw.at)
            }
            switch type {
            case "FeatureCollection":
                guard let features = raw.features else {
                    throw fail(.invalid("a FeatureCollection needs a \"features\" array"), raw, at: raw.at)
                }
                for f in features {
                    guard f.type == "Feature" else {
                        let found = f.type.map { "'\($0)'" } ?? "an object without \"type\""
                        throw fail(
                            .unexpected(found, expected: "a Feature in the features array"), f,
                            at: f.type == nil ? f.at : f.typeAt,
                            member: f.type == nil ? nil : "type")
                    }
                    try emitFeature(f, into: &track, feature: feature)
                    feature += 1
                }
            case "Feature":
                try emitFeature(raw, into: &track, feature: 0)
            default:
                try emitGeometry(raw, into: &track, feature: 0, properties: [:])
            }
        }

        private mutating func emitFeature(_ raw: RawObject, into track: inout Track, feature: Int) throws {
            guard let geometry = raw.geometry else {
                throw fail(.invalid("a Feature needs a \"geometry\" member (an object or null)"), raw, at: raw.at)
            }
            guard let geometry = geometry.first else { return }
            try emitGeometry(geometry, into: &track, feature: feature, properties: raw.properties ?? [:])
        }

        private mutating func emitGeometry(
            _ raw: RawObject, into track: inout Track, feature: Int,
            properties: [String: JSONValue]
        ) throws {
            guard let type = raw.type else {
                throw fail(.invalid("the geometry has no \"type\" member"), raw, at: raw.at)
            }
            let name = properties["name"]?.stringValue
            if type == "GeometryCollection" {
                guard let geometries = raw.geometries else {
                    throw fail(.invalid("a GeometryCollection needs a \"geometries\" array"), raw, at: raw.at)
                }
                for g in geometries {
                    try emitGeometry(g, into: &track, feature: feature, properties: properties)
                }
                return
            }
            guard let shape = GeoJSONReader.shapes[type] else {
                throw fail(.invalid("unknown GeoJSON type '\(type)'"), raw, at: raw.typeAt, member: "type")
            }
            guard let coordinates = raw.coordinates else {
                throw fail(.invalid("a \(type) needs a \"coordinates\" member"), raw, at: raw.at)
            }
            // Built only when thrown: locating an offset scans the file from the start.
            func mismatch() -> FormatError {
                fail(
                    .unexpected(describe(coordinates), expected: "\(shape.noun) for a \(type)"), raw,
                    at: raw.coordinatesAt, member: "coordinates")
            }
            func lines(_ c: Coordinates) throws -> [Range<Int>] {
                switch c {
                case .positions(let r): return [r]
                case .lists(let l) where l.isEmpty: return []
                default: throw mismatch()
                }
            }
            func linesOfLines(_ c: Coordinates) throws -> [Range<Int>] {
                guard case .lists(let l) = c else { throw mismatch() }
                return try l.flatMap(lines)
            }
            func addPart(_ r: Range<Int>, kind: TrackPart.Kind) {
                guard !r.isEmpty else { return }
                let points = positions[r].map {
                    TrackPoint(LatLng(lat: $0.lat, lon: $0.lon), elevation: $0.elevation)
                }
                track.parts.append(
                    TrackPart(kind: kind, points: points, name: name, feature: feature, properties: properties))
            }
            func addWaypoint(_ k: Int) {
                let q = positions[k]
                track.waypoints.append(
                    Waypoint(
                        LatLng(lat: q.lat, lon: q.lon), elevation: q.elevation, name: name,
                        feature: feature, properties: properties))
            }
            switch shape.depth {
            case 0:
                guard case .position(let k) = coordinates else { throw mismatch() }
                addWaypoint(k)
            case 1:
                for r in try lines(coordinates) {
                    if type == "MultiPoint" { r.forEach(addWaypoint) } else { addPart(r, kind: .line) }
                }
            case 2:
                for r in try linesOfLines(coordinates) { addPart(r, kind: type == "Polygon" ? .ring : .line) }
            default:
                guard case .lists(let polygons) = coordinates else { throw mismatch() }
                for polygon in polygons {
                    for r in try linesOfLines(polygon) { addPart(r, kind: .ring) }
                }
            }
        }

        private func describe(_ c: Coordinates) -> String {
            switch c {
            case .position: return "a position"
            case .positions: return "an array of positions"
            case .lists(let l):
                guard let first = l.first else { return "an empty array" }
                return "an array of "
                    + describe(first).replacingOccurrences(of: "a position", with: "positions")
                    .replacingOccurrences(of: "an array", with: "arrays")
            }
        }
    }
}
