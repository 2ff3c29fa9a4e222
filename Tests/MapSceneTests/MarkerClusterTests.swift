import Foundation
import GeoKit
import Testing
@testable import MapScene

/// Clustering against Mapbox's supercluster: `Fixtures/clusters.json` holds 1500 points and the
/// clusters supercluster.hpp (PyPI pysupercluster 0.7.7) makes of them at zooms 0–17, radius 50,
/// extent 512, maxZoom 16 (`make_cluster_fixture.py`).
@Suite struct MarkerClusterTests {
    struct Fixture: Decodable {
        var points: [[Double]]
        var radius: Double
        var maxZoom: Int
        /// Per zoom: [count, latitude, longitude, expansion zoom or null].
        var levels: [String: [[Double?]]]
    }

    static func fixture() throws -> Fixture {
        let url = try #require(Bundle.module.url(forResource: "clusters", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    /// Every zoom: the same clusters (counts, and positions within 1e-7°) with the same expansion
    /// zooms; past maxZoom every point as itself.
    @Test func matchesSupercluster() throws {
        let f = try Self.fixture()
        let markers = try f.points.map { try Marker(position: LatLng(lat: $0[0], lon: $0[1])) }
        let cluster = try MarkerCluster(markers: markers, radius: f.radius, maxZoom: f.maxZoom)
        for z in 0 ... 17 {
            let theirs = try #require(f.levels[String(z)])
            let ours = cluster.level(atZoom: Double(z) + 0.5)
            #expect(ours.count == theirs.count, "zoom \(z): \(ours.count) nodes, supercluster \(theirs.count)")
            #expect(ours.reduce(0) { $0 + $1.count } == markers.count)
            // supercluster lists a zoom's clusters by its spatial index, not in building order:
            // each of ours is matched to theirs of the same count within 1e-7° (cells of 1e-4°).
            func cell(_ lat: Double, _ lon: Double) -> [Int] { [Int((lat * 1e4).rounded(.down)), Int((lon * 1e4).rounded(.down))] }
            var cells: [[Int]: [[Double?]]] = [:]
            for t in theirs { cells[cell(t[1]!, t[2]!), default: []].append(t) }
            var matched = 0
            for node in ours {
                let p = node.point.latLng, c = cell(p.lat, p.lon)
                let near = (-1 ... 1).flatMap { dy in (-1 ... 1).flatMap { dx in cells[[c[0] + dy, c[1] + dx]] ?? [] } }
                guard let t = near.first(where: { Int($0[0]!) == node.count && abs($0[1]! - p.lat) < 1e-7 && abs($0[2]! - p.lon) < 1e-7 })
                else { continue }
                matched += 1
                if node.count > 1 { #expect(node.expansionZoom == t[3].map { Int($0) }, "zoom \(z): \(node) against \(t)") }
            }
            #expect(matched == ours.count, "zoom \(z): \(ours.count - matched) of our nodes are not supercluster's")
        }
    }

    /// Hand-derived: two markers 40 px apart at zoom 10 (512-px tiles) merge within 50 px and not
    /// within 30; at zoom 11 they are 80 px apart. The count reads as MapLibre abbreviates it.
    @Test func radiusIsInPixelsAtTheZoom() throws {
        let world = 512 * pow(2, 10.0)
        let a = LatLng(lat: 0, lon: 0), b = LatLng(lat: 0, lon: 40 / world * 360)
        let markers = [try Marker(position: a), try Marker(position: b)]
        let wide = try MarkerCluster(markers: markers, radius: 50)
        #expect(wide.level(atZoom: 10.9).map(\.count) == [2])
        #expect(wide.level(atZoom: 11).map(\.count) == [1, 1])
        #expect(wide.level(atZoom: 10).first?.expansionZoom == 11)
        let narrow = try MarkerCluster(markers: markers, radius: 30)
        #expect(narrow.level(atZoom: 10).map(\.count) == [1, 1])
        #expect(try MarkerCluster(markers: markers, maxZoom: 9).level(atZoom: 10).map(\.marker) == [0, 1])
        #expect([999, 1000, 1249, 1250, 9_949, 9_950, 12_345].map(MarkerCluster.abbreviated)
                == ["999", "1k", "1.2k", "1.3k", "9.9k", "10k", "12k"])
        for (r, z) in [(0.0, 16), (.nan, 16), (600, 16), (50, -1), (50, 25)] {
            #expect(throws: SceneError.self) { try MarkerCluster(markers: markers, radius: r, maxZoom: z) }
        }
    }
}
