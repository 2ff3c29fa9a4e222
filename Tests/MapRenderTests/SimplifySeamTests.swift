import GeoKit
import Testing
@testable import MapRender

/// Polygon rings cut along tile edges keep their cut edges exactly when simplified.
@Suite struct SimplifySeamTests {
    /// The ring that showed the seam over France (basemap level 1, tile 3,2, grid 2^18, y in
    /// grid units): coast points a fraction of the tolerance from the corner (0.5, 89652) where
    /// the coast meets the tile's east edge x = 0.5. Tolerance 6.1e-5 (0.5 px at zoom 4.1).
    @Test func cornerOfAnAxisEdgeSurvives() {
        let g = 1.0 / 262_144
        let ring = [
            MapPoint(x: 0.4985542297363281, y: 89631 * g), MapPoint(x: 0.4995460510253906, y: 89696 * g),
            MapPoint(x: 0.499969482421875, y: 89658 * g), MapPoint(x: 0.5, y: 89652 * g),
            MapPoint(x: 0.5, y: 98304 * g), MapPoint(x: 0.475921630859375, y: 98304 * g),
            MapPoint(x: 0.4985542297363281, y: 89631 * g),
        ]
        let tolerance = 6.103515625e-05
        let plain = Simplify.simplify(ring, tolerance: tolerance)
        // Without pinning the radial pass drops the corner (it is 0.2 px from its neighbour):
        // the cut edge tilts and a sliver opens along x = 0.5.
        #expect(!plain.contains(MapPoint(x: 0.5, y: 89652 * g)))
        let kept = Simplify.simplify(ring, tolerance: tolerance, keepAxisEdges: true)
        #expect(kept.contains(MapPoint(x: 0.5, y: 89652 * g)))
        #expect(kept.contains(MapPoint(x: 0.5, y: 98304 * g)))
        #expect(kept.contains(MapPoint(x: 0.475921630859375, y: 98304 * g)))
        #expect(kept.first == ring.first && kept.last == ring.last)
    }
}
