/// Opacities of labels a placement shows and hides from one frame to the next, as MapLibre fades
/// its symbols: each placed label fades in from where it was by `time − last time` over
/// `duration` (a new one from 0), and one the placement no longer shows fades out where it was
/// last drawn. The planner keeps one for marker labels, the snapshotter one for the basemap's
/// place names. `Key` says which label is which from frame to frame (and orders the fading-out
/// ones, so a frame draws the same every time); `Item` is what is drawn.
public struct LabelFades<Key: Hashable & Comparable, Item> {
    private var fades: [Key: (item: Item, opacity: Double)] = [:]
    private var time: Double?

    public init() {}

    /// Whether a label is part-way through a fade.
    public var fading: Bool { fades.values.contains { $0.opacity < 1 } }

    /// Whether no label is shown or fading.
    public var isEmpty: Bool { fades.isEmpty }

    /// Forgets every label (the next frame shows its placement at once).
    public mutating func reset() { fades = [:]; time = nil }

    /// The labels to draw at `time`: the fading-out ones first (under the placed ones; they keep
    /// no other label out), then the placed ones, each with its opacity (0…1; fully faded-out
    /// ones are left out). Without a duration, on the first frame, or on one earlier than the
    /// last, the placed labels at opacity 1.
    public mutating func step(_ placed: [(key: Key, item: Item)], duration: Double, time: Double)
        -> [(item: Item, opacity: Double)] {
        defer { self.time = duration > 0 && time.isFinite ? time : nil }
        guard duration > 0, duration.isFinite, time.isFinite, let last = self.time, time >= last else {
            fades = [:]
            for p in placed where fades[p.key] == nil { fades[p.key] = (p.item, 1) }
            return placed.map { ($0.item, 1) }
        }
        let step = (time - last) / duration
        var now: [Key: (item: Item, opacity: Double)] = [:]
        var shown: [(item: Item, opacity: Double)] = []
        for p in placed where now[p.key] == nil {
            let opacity = min(1, (fades[p.key]?.opacity ?? 0) + step)
            now[p.key] = (p.item, opacity)
            shown.append((p.item, opacity))
        }
        var leaving: [(item: Item, opacity: Double)] = []
        for (key, f) in fades.sorted(by: { $0.key < $1.key }) where now[key] == nil && f.opacity - step > 0 {
            now[key] = (f.item, f.opacity - step)
            leaving.append((f.item, f.opacity - step))
        }
        fades = now
        return leaving + shown.filter { $0.opacity > 0 }
    }
}
