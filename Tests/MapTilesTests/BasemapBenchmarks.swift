import Foundation
import GeoKit
import Testing
@testable import MapTiles

/// Load and query timings of the embedded basemap. Not a unit test: it only runs with
/// `MAPWRIGHT_BENCH=1`, in release via `bash scripts/basemap/bench.sh`, and prints medians.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MAPWRIGHT_BENCH"] == "1"))
struct BasemapBenchmarks {
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, min: Double) {
        var times: [Double] = []
        for _ in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times[0])
    }

    @Test func loadAndQuery() throws {
        guard
            let url = EmbeddedBasemap.resourceCandidates().first(where: {
                FileManager.default.isReadableFile(atPath: $0.path)
            })
        else { Issue.record("resource not found"); return }
        var map = try EmbeddedBasemap(contentsOf: url)
        let load = try Self.median(9) { map = try EmbeddedBasemap(contentsOf: url) }
        print(
            String(
                format: "basemap load (%d bytes, %@): median %.2f ms, min %.2f ms",
                map.byteCount, url.lastPathComponent, load.median, load.min))
        let views: [(String, MapRect, Double)] = [
            ("world z0", .world, 0),
            ("world 2 copies z1", MapRect(origin: MapPoint(x: -0.5, y: 0), width: 2, height: 1), 1),
            ("Europe 1024x768 z3.5", viewRect(center: LatLng(lat: 50, lon: 10), zoom: 3.5), 3.5),
            ("Denmark 1024x768 z6", viewRect(center: LatLng(lat: 56, lon: 11), zoom: 6), 6),
            ("Norway 1024x768 z6", viewRect(center: LatLng(lat: 62, lon: 7), zoom: 6), 6),
            ("Bering 1024x768 z8 (antimeridian)", viewRect(center: LatLng(lat: 66, lon: 180), zoom: 8), 8),
            ("Paris 1024x768 z12", viewRect(center: LatLng(lat: 48.8566, lon: 2.3522), zoom: 12), 12),
            ("Paris 1024x768 z15", viewRect(center: LatLng(lat: 48.8566, lon: 2.3522), zoom: 15), 15),
        ]
        for (name, rect, zoom) in views {
            var f = map.features(in: rect, zoom: zoom)
            let t = Self.median(21) { f = map.features(in: rect, zoom: zoom) }
            print(
                String(
                    format: "basemap query %@: median %.3f ms, min %.3f ms (%@, %d tiles, %d vertices, %d places)",
                    name, t.median, t.min, f.sourceScale, f.tileCount, f.vertexCount, f.places.count))
        }
    }
}
