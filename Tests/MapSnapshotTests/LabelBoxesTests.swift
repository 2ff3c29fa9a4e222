@testable import MapSnapshot
import MapTestSupport
import Testing

/// The grid of placed label boxes answers every collision test as testing each box would.
@Suite struct LabelBoxesTests {
    @Test func handPlacedBoxes() {
        var boxes = LabelBoxes([(0, 0, 100, 20)])
        #expect(boxes.meets((50, 10, 60, 30)))
        // Touching edges do not meet, on a cell's border (64) or not.
        #expect(!boxes.meets((100, 0, 120, 20)) && !boxes.meets((0, 20, 100, 40)))
        boxes.append((64, 64, 128, 128))
        #expect(!boxes.meets((128, 64, 140, 70)) && boxes.meets((127.9, 127.9, 130, 130)))
        // Negative coordinates (a box left of or above the view), a box spanning many cells, a
        // huge one, and boxes that are not finite.
        boxes.append((-300, -50, -200, -10))
        #expect(boxes.meets((-210, -20, -205, -15)) && !boxes.meets((-199, -20, -190, -15)))
        boxes.append((1000, 0, 5000, 4000))
        #expect(boxes.meets((4990, 3990, 6000, 6000)))
        boxes.append((-1e12, 7000, 1e12, 7001))
        #expect(boxes.meets((3, 6999, 4, 7000.5)) && !boxes.meets((3, 7001, 4, 7002)))
        boxes.append((.nan, 0, 10, 10))
        boxes.append((0, 0, .infinity, 1))
        #expect(boxes.meets((1e9, 0.5, 1e9 + 1, 0.6)))
        #expect(!boxes.meets((-1e300, -1e300, -1e299, -1e299)) && !boxes.meets((.nan, .nan, .nan, .nan)))
        #expect(boxes.all.count == 7 && !boxes.isEmpty)
    }

    @Test func randomBoxesAnswerAsTheLinearTest() {
        var rng = SplitMix64(seed: 11)
        var boxes = LabelBoxes()
        var list: [LabelBox] = []
        func box(_ big: Double) -> LabelBox {
            let x = Double.random(in: -200 ... 1200, using: &rng), y = Double.random(in: -150 ... 850, using: &rng)
            return (x, y, x + Double.random(in: 0 ... big, using: &rng), y + Double.random(in: 0 ... big / 3, using: &rng))
        }
        for i in 0 ..< 3000 {
            let b = box(i % 50 == 0 ? 900 : 80)
            let expected = meets(b, list)
            #expect(boxes.meets(b) == expected, "box \(i) \(b)")
            if !expected || i % 7 == 0 {
                boxes.append(b)
                list.append(b)
            }
        }
        #expect(list.count > 100)
    }
}
