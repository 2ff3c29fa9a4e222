@testable import MapServer
import Testing

/// The server's image cache: charged by bytes, least recently used dropped first.
@Suite struct ImageCacheTests {
    func item(_ bytes: Int) -> ImageCache.Item { .init(body: [UInt8](repeating: 7, count: bytes), etag: "e", contentType: "image/png") }

    @Test func chargesBodyKeyAndSixtyFourBytes() {
        let cache = ImageCache(capacityBytes: 1 << 20)
        // 1000 + 3 + 64 and 2000 + 5 + 64, by hand.
        #expect(cache.insert(item(1000), for: "abc") == (1067, 1))
        #expect(cache.insert(item(2000), for: "defgh") == (1067 + 2069, 2))
        // Replacing an entry charges the new body only.
        #expect(cache.insert(item(10), for: "abc") == (77 + 2069, 2))
        #expect(cache.size == 77 + 2069)
    }

    @Test func dropsTheLeastRecentlyUsedDownToSevenEighths() {
        // 1 MiB (the smallest capacity); entries of 100 000 + 2 + 64 bytes: ten fit (1 000 660).
        let cache = ImageCache(capacityBytes: 1 << 20)
        for i in 0 ..< 10 { cache.insert(item(100_000), for: "k\(i)") }
        #expect(cache.count == 10)
        _ = cache["k0"]  // k0 is now the most recently used
        // The 11th ("k10", a byte more) makes 10 × 100 066 + 100 067 = 1 100 727, past 1 048 576:
        // entries go oldest first (k1, k2) until the total is at most 917 504 (7/8): 900 595.
        let after = cache.insert(item(100_000), for: "k10")
        #expect(after == (900_595, 9))
        #expect(cache["k0"]?.etag != nil, "the entry read last was dropped")
        for gone in ["k1", "k2"] { #expect(cache[gone]?.etag == nil, "\(gone) kept") }
        for kept in ["k3", "k9", "k10"] { #expect(cache[kept]?.etag != nil, "\(kept) dropped") }
    }

    @Test func anImageOverAnEighthOfTheCapacityIsNotKept() {
        let cache = ImageCache(capacityBytes: 1 << 20)
        // An eighth of 1 MiB is 131 072 bytes: a body of 131 007 with a one-letter key costs exactly that.
        #expect(cache.insert(item(131_007), for: "a") == (131_072, 1))
        #expect(cache.insert(item(131_072), for: "big") == (131_072, 1))
        #expect(cache["big"]?.etag == nil)
    }
}
