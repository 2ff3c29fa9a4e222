import Foundation
import GeoKit
import MapCamera
import MapImage
import MapTestSupport
import Testing

/// `mapwright animate` end to end through the built binary: pulses and replays read back
/// frame by frame against their formulas, APNG against Pillow, MP4 against ffprobe, and bad
/// input that fails cleanly without leaving anything behind.
@Suite(.serialized) struct AnimateCLITests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("mapwright-animate") }

    func path(_ name: String) -> String { scratch.path(name) }

    static let center = LatLng(lat: 37.7651335, lon: -122.4191805)

    /// Metres per logical pixel at the centre latitude (Web Mercator, MapLibre's 512 px world).
    static func metresPerPixel(zoom: Double) -> Double {
        40_075_016.686 * cos(center.lat * .pi / 180) / (512 * pow(2, zoom))
    }

    /// The pulse's diameter along the centre row (coverage-weighted: every pixel counts by how far
    /// its green channel moved from the white background towards the centre's value) and its
    /// opacity from the centre pixel (pulse colour ff3b30 over white: G = 255 − 196·opacity).
    static func measure(_ image: Bitmap, cx: Int, cy: Int) -> (diameter: Double, opacity: Double) {
        guard let c = image.pixel(x: cx, y: cy) else { return (0, 0) }
        let inside = 255 - Double(c.g)
        var sum = 0.0
        for x in 0..<image.width {
            guard let p = image.pixel(x: x, y: cy) else { continue }
            sum += min(max((255 - Double(p.g)) / max(inside, 1e-9), 0), 1.2)
        }
        return (sum, inside / 196)
    }

    /// The iOS pulse at 25 fps with the defaults: at every frame the disc's radius is
    /// (0.8 + 0.4·frac(t/0.8)) times the geodesic radius (±1.5 px, east-west through the centre,
    /// the geodesic end points projected by Camera) and its opacity 0.5 − 0.45·frac(t/0.8) (±0.03),
    /// for a circle 40 px and one 400 px across.
    @Test(arguments: [(40.0, 200), (400, 600)])
    func metricPulseFollowsTheFormulaOnEveryFrame(across: Double, side: Int) throws {
        let zoom = 15.0
        let radius = across / 2 * Self.metresPerPixel(zoom: zoom)
        let dir = try pulseFrames("pulse-m-\(Int(across))", side: side, zoom: zoom, radius: "\(radius)m", duration: 1.2, frames: 30)
        let cam = Camera(center: Self.center, zoom: zoom, size: ScreenSize(width: Double(side), height: Double(side)))
        for n in 0..<30 {
            let t = Double(n) / 25
            let x = t / 0.8
            let frac = x - x.rounded(.down)
            let scale = 0.8 + 0.4 * frac
            let image = try Bitmap(contentsOfPNGFile: dir + PNGSequenceWriter.name(ofFrame: n))
            let east = try #require(cam.project(Geodesic.wgs84.direct(from: Self.center, azimuth: 90, distance: radius * scale).point))
            let west = try #require(cam.project(Geodesic.wgs84.direct(from: Self.center, azimuth: 270, distance: radius * scale).point))
            let expected = (east.x - west.x) / 2
            let m = Self.measure(image, cx: side / 2, cy: side / 2)
            expectNear(m.diameter / 2, expected, tolerance: 1.5, "frame \(n) radius")
            expectNear(m.opacity, 0.5 - 0.45 * frac, tolerance: 0.03, "frame \(n) opacity")
        }
    }

    /// The fixed-pixel variant keeps 20·(0.8 + 0.4·frac) px at zoom 8 and at zoom 16.
    @Test(arguments: [8.0, 16.0])
    func pixelPulseKeepsItsScreenSize(zoom: Double) throws {
        let dir = try pulseFrames("pulse-px-\(Int(zoom))", side: 120, zoom: zoom, radius: "20px", duration: 0.8, frames: 20)
        for n in 0..<20 {
            let frac = Double(n) / 20
            let image = try Bitmap(contentsOfPNGFile: dir + PNGSequenceWriter.name(ofFrame: n))
            let m = Self.measure(image, cx: 60, cy: 60)
            expectNear(m.diameter / 2, 20 * (0.8 + 0.4 * frac), tolerance: 1.5, "frame \(n) radius at zoom \(zoom)")
            expectNear(m.opacity, 0.5 - 0.45 * frac, tolerance: 0.03, "frame \(n) opacity")
        }
    }

    /// A marker label that the placement hides mid-animation fades out over `labelFade` (0.3 s by
    /// default, MapLibre's), and at once with `--label-fade 0`. A labelled dot at the centre has
    /// a dot 20 px to its left (its left side taken); a dot slides in from 300 px right of it to
    /// 20 px right of it over the second, at 30 fps, and takes the right side too when its box
    /// reaches the label's. The frame where that happens comes from the run without fade (the
    /// label is gone there); with the default fade the label's ink at frame n ≥ that frame n₀ is
    /// 1 − (n − n₀ + 1)/9 of its ink at frame 0 (each frame is 1/30 s of the 0.3 s fade, the fade
    /// counted from the frame before), read from the label's first letters, which the sliding dot
    /// never reaches.
    @Test func aHiddenLabelFadesOutUnlessTheFadeIsZero() throws {
        let pxPerDegree = 512 * pow(2, 16.0) / 360
        func lon(_ px: Double) -> String { String(format: "%.9f", px / pxPerDegree) }
        let scene = path("fade.json")
        try Data("""
            {"size": [400, 120], "basemap": "none", "attribution": false, "camera": {"center": [0, 0], "zoom": 16},
             "duration": 1, "fps": 30,
             "overlays": [{"type": "marker", "position": [0, 0], "label": "AAAA", "style": "dot"},
                          {"type": "marker", "position": [0, \(lon(-20))], "style": "dot"},
                          {"type": "marker", "position": [0, \(lon(300))], "style": "dot",
                           "animation": {"duration": 1, "position": [[0, \(lon(300))], [0, \(lon(20))]]}}]}
            """.utf8).write(to: URL(fileURLWithPath: scene))
        /// The darkness of the grey (text) pixels of the label's first letters.
        func ink(_ dir: String, _ n: Int) throws -> Double {
            let image = try Bitmap(contentsOfPNGFile: dir + PNGSequenceWriter.name(ofFrame: n))
            var sum = 0.0
            for y in 45 ... 75 {
                for x in 204 ... 218 {
                    guard let p = image.pixel(x: x, y: y) else { continue }
                    let c = [Double(p.r), Double(p.g), Double(p.b)]
                    if c.max()! - c.min()! < 30 { sum += 255 - c.reduce(0, +) / 3 }
                }
            }
            return sum
        }
        var dirs: [String] = []
        for (name, extra) in [("fade-default", [String]()), ("fade-none", ["--label-fade", "0"])] {
            let dir = path(name) + "/"
            let r = try runMapwright(["animate", "--scene", scene, "-o", dir] + extra)
            #expect(r.status == 0 && r.stderr.contains("animate: 30 frames in"), "\(r.stderr)")
            dirs.append(dir)
        }
        let full = try ink(dirs[1], 0)
        #expect(full > 1000, "no label at frame 0 (ink \(full))")
        let gone = try #require((0 ..< 30).first { try ink(dirs[1], $0) < full * 0.02 }, "the label is never hidden")
        // The sliding dot's box (±8 px) meets the label's (12 px right of the dot, about 43 px
        // long) when it is about 63 px right of it: t ≈ 0.85 s.
        #expect((22 ... 28).contains(gone), "hidden from frame \(gone)")
        for n in 0 ..< 30 {
            let expected = n < gone ? 1 : max(0, 1 - Double(n - gone + 1) / 9)
            expectNear(try ink(dirs[0], n) / full, expected, tolerance: 0.04, "frame \(n) with the default fade")
            expectNear(try ink(dirs[1], n) / full, n < gone ? 1 : 0, tolerance: 0.02, "frame \(n) without fade")
        }
        // A fade out of range is refused, naming the flag's key.
        let bad = try runMapwright(["animate", "--scene", scene, "-o", path("bad") + "/", "--label-fade", "11"])
        #expect(bad.status == 1 && bad.stderr.contains("labelFade: 11 is not in 0…10 s"), "\(bad.stderr)")
    }

    /// Animates a default pulse of `radius` at the centre, `side`×`side` px at `zoom`, 25 fps, to
    /// numbered PNG frames; checks the run and the frame count; returns the directory.
    func pulseFrames(_ name: String, side: Int, zoom: Double, radius: String, duration: Double, frames: Int) throws -> String {
        let dir = path(name) + "/"
        let r = try runMapwright([
            "animate", "-o", dir, "--basemap", "none", "--no-attribution", "--size", "\(side)x\(side)",
            "--center", "\(Self.center.lat),\(Self.center.lon)", "--zoom", "\(zoom)",
            "--pulse", "\(Self.center.lat),\(Self.center.lon),\(radius)", "--fps", "25", "--duration", "\(duration)",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("animate: \(frames) frames in"), "\(r.stderr)")
        return dir
    }

    /// A GPX with irregular timestamps (1 to 9 s apart) and a curving path.
    func irregularGPX() throws -> (file: String, points: [(lat: Double, lon: Double, t: Double)]) {
        var rng = SplitMix64(seed: 7)
        var pts: [(Double, Double, Double)] = []
        var t = 1_714_557_600.0  // 2024-05-01T10:00:00Z
        for i in 0..<60 {
            let a = Double(i) / 59 * 2.5
            pts.append((37.760 + 0.004 * sin(a) + 0.0005 * Double(i % 3), -122.43 + 0.0004 * Double(i), t))
            t += Double(1 + rng.next() % 9)
        }
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        let f = ISO8601DateFormatter()
        for p in pts {
            gpx += "<trkpt lat=\"\(p.0)\" lon=\"\(p.1)\"><time>\(f.string(from: Date(timeIntervalSince1970: p.2)))</time></trkpt>\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        return (try scratch.write("irregular.gpx", gpx), pts.map { (lat: $0.0, lon: $0.1, t: $0.2) })
    }

    /// Replay: at frame N the head (a green dot over a blue line) is where the track's
    /// time-interpolated position at start + N·speed/fps projects (±1 px).
    @Test func replayHeadIsAtTheTimeInterpolatedPosition() throws {
        let (gpx, pts) = try irregularGPX()
        let dir = path("replay") + "/"
        let center = LatLng(lat: 37.7625, lon: -122.418)
        let zoom = 13.5, fps = 10.0, speed = 23.0
        let r = try runMapwright([
            "animate", "-o", dir, "--basemap", "none", "--no-attribution", "--size", "500x400",
            "--center", "\(center.lat),\(center.lon)", "--zoom", "\(zoom)", "--replay", gpx, "--speed", "\(speed)",
            "--head", "dot", "--marker-color", "00a000", "--route-color", "1f6feb", "--fps", "\(fps)", "--duration", "4",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let cam = Camera(center: center, zoom: zoom, size: ScreenSize(width: 500, height: 400))
        for n in 0..<40 {
            let t = pts[0].t + Double(n) * speed / fps
            var k = 0
            while k + 2 < pts.count, pts[k + 1].t <= t { k += 1 }
            let f = min(max((t - pts[k].t) / (pts[k + 1].t - pts[k].t), 0), 1)
            let expected = try #require(cam.project(LatLng(lat: pts[k].lat + f * (pts[k + 1].lat - pts[k].lat),
                                                          lon: pts[k].lon + f * (pts[k + 1].lon - pts[k].lon))))
            let image = try Bitmap(contentsOfPNGFile: dir + PNGSequenceWriter.name(ofFrame: n))
            var sx = 0.0, sy = 0.0, count = 0.0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    guard let p = image.pixel(x: x, y: y), p.g > 120, p.r < 90, p.b < 90 else { continue }
                    sx += Double(x) + 0.5; sy += Double(y) + 0.5; count += 1
                }
            }
            try #require(count > 40, "frame \(n): no head dot found")
            expectNear(sx / count, expected.x, tolerance: 1, "frame \(n) x")
            expectNear(sy / count, expected.y, tolerance: 1, "frame \(n) y")
        }
    }

    /// The APNG decodes with Pillow (an independent decoder) to exactly the PNG frames, with
    /// the declared frame count, a 40 ms delay at 25 fps, and loop 0 (forever).
    @Test func apngDecodesFrameByFrameAsThePNGFrames() throws {
        let args = ["--basemap", "embedded", "--size", "240x160", "--center", "\(Self.center.lat),\(Self.center.lon)",
                    "--zoom", "14", "--pulse", "\(Self.center.lat),\(Self.center.lon),300m", "--pulse", "37.77,-122.43,12px",
                    "--compass", "--fps", "25", "--duration", "0.4"]
        let apng = path("a.apng"), dir = path("frames") + "/"
        let a = try runMapwright(["animate", "-o", apng] + args)
        let d = try runMapwright(["animate", "-o", dir] + args)
        #expect(a.status == 0 && d.status == 0, "\(a.stderr) \(d.stderr)")
        let script = """
            import sys
            from PIL import Image, ImageSequence
            im = Image.open(sys.argv[1])
            assert im.format == 'PNG' and getattr(im, 'is_animated', False), 'not an animated PNG'
            print('frames', im.n_frames, 'loop', im.info.get('loop'), 'duration', int(im.info.get('duration')))
            for i, frame in enumerate(ImageSequence.Iterator(im)):
                ref = Image.open(sys.argv[2] + '%06d.png' % i).convert('RGBA')
                if frame.convert('RGBA').tobytes() != ref.tobytes():
                    print('mismatch', i); sys.exit(1)
            print('identical')
            """
        let py = try scratch.write("apng.py", script)
        let res = try runProgram("/usr/bin/python3", [py, apng, dir])
        #expect(res.status == 0, "\(res.stdout) \(res.stderr)")
        #expect(res.stdout.contains("frames 10 loop 0 duration 40"), "\(res.stdout)")
        #expect(res.stdout.contains("identical"), "\(res.stdout)")
    }

    /// An animated GIF decodes with Pillow to the PNG frames within a level or two (256 colours
    /// a frame), loops forever, and spreads 1/30 s frames over whole hundredths so that frame N
    /// starts at the hundredth nearest N/30 (0, 3, 7, 10, 13, 17, 20 …): delays of 3, 4, 3, 3,
    /// 4, 3 … hundredths (Pillow says 30, 40, 30 ms …), 0.4 s in all.
    @Test func gifDecodesFrameByFrameNearThePNGFrames() throws {
        let args = ["--basemap", "embedded", "--size", "240x160", "--center", "\(Self.center.lat),\(Self.center.lon)",
                    "--zoom", "14", "--pulse", "\(Self.center.lat),\(Self.center.lon),300m", "--compass", "--fps", "30",
                    "--duration", "0.4"]
        let gif = path("a.gif"), dir = path("gframes") + "/"
        let a = try runMapwright(["animate", "-o", gif] + args)
        let d = try runMapwright(["animate", "-o", dir] + args)
        #expect(a.status == 0 && d.status == 0, "\(a.stderr) \(d.stderr)")
        let script = """
            import sys
            from PIL import Image, ImageSequence
            im = Image.open(sys.argv[1])
            assert im.format == 'GIF' and im.is_animated, 'not an animated GIF'
            durations, worst = [], 0.0
            for i, frame in enumerate(ImageSequence.Iterator(im)):
                durations.append(frame.info.get('duration'))
                a = frame.convert('RGB').tobytes()
                b = Image.open(sys.argv[2] + '%06d.png' % i).convert('RGB').tobytes()
                worst = max(worst, sum(abs(x - y) for x, y in zip(a, b)) / len(a))
            print('frames', im.n_frames, 'loop', im.info.get('loop'), 'durations', ','.join(map(str, durations)))
            print('worst mean difference %.3f' % worst)
            """
        let py = try scratch.write("gif.py", script)
        let res = try runProgram("/usr/bin/python3", [py, gif, dir])
        #expect(res.status == 0, "\(res.stdout) \(res.stderr)")
        #expect(res.stdout.contains("frames 12 loop 0 durations 30,40,30,30,40,30,30,40,30,30,40,30"), "\(res.stdout)")
        let worst = res.stdout.split(separator: "\n").first { $0.hasPrefix("worst") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        #expect((worst ?? 99) < 1.5, "\(res.stdout)")
        // Over 50 fps is refused (players stretch frames under 2 hundredths), leaving nothing.
        let fast = try runMapwright(["animate", "-o", path("fast.gif"), "--pulse", "1,2,10px", "--fps", "60", "--duration", "0.2"])
        #expect(fast.status == 1 && fast.stderr.contains("60 fps is over 50"), "\(fast.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("fast.gif")))
    }

    /// MP4 probes with ffprobe as H.264, yuv420p, with the frame count, size and rate asked for
    /// (an odd width is padded to the next even one); WebM as VP9.
    @Test func videosProbeAsH264AndVP9() throws {
        let out = path("v.mp4")
        let r = try runMapwright(["animate", "-o", out, "--size", "321x200", "--center", "\(Self.center.lat),\(Self.center.lon)",
                                  "--zoom", "13", "--pulse", "\(Self.center.lat),\(Self.center.lon),400m", "--fps", "24",
                                  "--duration", "1.5"])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try Self.ffprobe(out)
        #expect(probe.status == 0, "\(probe.stderr)")
        for line in ["codec_name=h264", "width=322", "height=200", "pix_fmt=yuv420p", "r_frame_rate=24/1", "nb_read_frames=36"] {
            #expect(probe.stdout.contains(line), "missing \(line) in \(probe.stdout)")
        }
        // WebM: VP9, same frames.
        let webm = path("v.webm")
        let w = try runMapwright(["animate", "-o", webm, "--size", "200x150", "--center", "\(Self.center.lat),\(Self.center.lon)",
                                  "--zoom", "13", "--pulse", "\(Self.center.lat),\(Self.center.lon),400m", "--fps", "20",
                                  "--duration", "1"])
        #expect(w.status == 0, "\(w.stderr)")
        let wp = try Self.ffprobe(webm)
        for line in ["codec_name=vp9", "width=200", "height=150", "r_frame_rate=20/1", "nb_read_frames=20"] {
            #expect(wp.stdout.contains(line), "missing \(line) in \(wp.stdout)")
        }
    }

    /// A scene's `"loop": false` and `--no-loop` both write an APNG that plays once (Pillow's
    /// `loop` 1); `--loop` overrides the scene; the default plays forever (0).
    @Test func loopFromTheSceneOrTheFlag() throws {
        let scene = try scratch.write("once.json", """
            {"camera": {"center": [37.76, -122.42], "zoom": 13}, "size": [60, 40], "loop": false, "duration": 0.1,
             "overlays": [{"type": "pulse", "position": [37.76, -122.42], "radius": 10, "radiusUnit": "px"}]}
            """)
        let cases: [([String], Int)] = [(["--scene", scene], 1), (["--scene", scene, "--loop"], 0),
                                        (["--pulse", "1,2,5px", "--center", "1,2", "--zoom", "3", "--duration", "0.1", "--no-loop"], 1),
                                        (["--pulse", "1,2,5px", "--center", "1,2", "--zoom", "3", "--duration", "0.1"], 0)]
        for (k, (args, loop)) in cases.enumerated() {
            let out = path("loop-\(k).apng")
            let r = try runMapwright(["animate", "-o", out, "--size", "60x40"] + args)
            #expect(r.status == 0, "\(r.stderr)")
            let py = try runProgram("/usr/bin/python3", ["-c", "import sys; from PIL import Image; print(Image.open(sys.argv[1]).info.get('loop'))", out])
            #expect(py.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(loop)", "\(args): loop \(py.stdout) \(py.stderr)")
        }
        // A GIF plays forever with the NETSCAPE2.0 extension (loop 0) and once without it (a
        // count of 1 there would be one repeat: two plays).
        for (k, (args, loop)) in [(["--no-loop"], "None"), ([], "0")].enumerated() {
            let out = path("loop-\(k).gif")
            let r = try runMapwright(["animate", "-o", out, "--size", "60x40", "--pulse", "1,2,5px", "--center", "1,2", "--zoom", "3",
                                      "--duration", "0.1"] + args)
            #expect(r.status == 0, "\(r.stderr)")
            let py = try runProgram("/usr/bin/python3", ["-c", "import sys; from PIL import Image; print(Image.open(sys.argv[1]).info.get('loop'))", out])
            #expect(py.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == loop, "\(args): loop \(py.stdout) \(py.stderr)")
        }
    }

    /// ffprobe's view of the first video stream, one `key=value` per line.
    static func ffprobe(_ file: String) throws -> ProgramOutput {
        try runProgram("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                         "stream=codec_name,width,height,r_frame_rate,nb_read_frames,pix_fmt",
                                         "-of", "default=noprint_wrappers=1", file])
    }

    /// Bad input: a clear message, a non-zero exit, and nothing left in the output directory.
    @Test func badInputFailsCleanly() throws {
        let csv = try scratch.write("notimes.csv", "lat,lon\n37.76,-122.42\n37.77,-122.41\n37.78,-122.40\n")
        let back = try scratch.write("back.csv", "lat,lon,time\n37.76,-122.42,2024-05-01T10:00:00Z\n"
            + "37.77,-122.41,2024-05-01T10:00:30Z\n37.78,-122.40,2024-05-01T09:59:00Z\n37.79,-122.39,2024-05-01T10:02:00Z\n")
        let outDir = try ScratchDirectory("mapwright-animate-bad")
        let base = ["--center", "37.76,-122.42", "--zoom", "12", "--size", "100x80", "--basemap", "none"]
        let cases: [([String], String, [String: String]?)] = [
            (["-o", outDir.path("r.apng"), "--replay", csv] + base, "no times on 3 of 3 points", nil),
            (["-o", outDir.path("b.apng"), "--replay", back] + base, "point 3 of 4 is 90 s earlier than point 2", nil),
            (["-o", outDir.path("f.apng"), "--fps", "0"] + base + ["--pulse", "37.76,-122.42,10px"], "--fps: 0 is not in (0, 120]", nil),
            (["-o", outDir.path("f.apng"), "--fps", "121"] + base + ["--pulse", "37.76,-122.42,10px"], "--fps: 121 is not in (0, 120]", nil),
            (["-o", outDir.path("d.apng"), "--duration", "601"] + base, "601 s is over the limit of 600 s", nil),
            (["-o", outDir.path("n.apng"), "--duration", "600", "--fps", "60"] + base, "36000 frames is over the limit of 20000", nil),
            (["-o", outDir.path("x.tiff")] + base, "expected a name ending in .apng, .png, .gif", nil),
            (["-o", outDir.path("v.mp4")] + base + ["--pulse", "37.76,-122.42,10px"], "apt-get install ffmpeg", ["PATH": "/nonexistent"]),
            (["-o", outDir.path("p.apng"), "--pulse", "37.76,-122.42,5furlongs"] + base, "must be a number ending in m, km or px", nil),
            (["-o", outDir.path("q.apng"), "--pulse-scale", "1"] + base + ["--pulse", "37.76,-122.42,10px"], "expected FROM,TO", nil),
        ]
        for (args, message, env) in cases {
            let r = try runMapwright(["animate"] + args, environment: env)
            #expect(r.status != 0, "\(args) succeeded")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: outDir.url.path)
            #expect(left.isEmpty, "\(args) left \(left)")
        }
        // Asked for, the same track replays by distance.
        let ok = try runMapwright(["animate", "-o", outDir.path("ok.apng"), "--replay", csv, "--by-distance", "--duration", "0.2"] + base)
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    /// A shorter run into a directory of frames leaves one animation there: the earlier run's
    /// frames that followed (and only those, numbered on without a gap) are removed and reported;
    /// other files, and a frame after a gap, stay.
    @Test func framesOfAnEarlierLongerRunAreRemoved() throws {
        let dir = path("rerun") + "/"
        let base = ["animate", "-o", dir, "--basemap", "none", "--size", "60x40", "--center", "37.76,-122.42", "--zoom", "12",
                    "--pulse", "37.76,-122.42,10px", "--fps", "10"]
        let first = try runMapwright(base + ["--duration", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let other = dir + "notes.txt", afterGap = dir + PNGSequenceWriter.name(ofFrame: 12)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: other))
        try Data("not a frame of this run".utf8).write(to: URL(fileURLWithPath: afterGap))
        let second = try runMapwright(base + ["--duration", "0.4"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("removed 6 frames of an earlier run"), "\(second.stderr)")
        #expect(second.stderr.contains("000004.png to 000009.png"), "\(second.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == (0..<4).map { PNGSequenceWriter.name(ofFrame: $0) } + [PNGSequenceWriter.name(ofFrame: 12), "notes.txt"])
        // The same length again removes nothing and says nothing about it.
        let third = try runMapwright(base + ["--duration", "0.4"])
        #expect(third.status == 0 && !third.stderr.contains("removed"), "\(third.stderr)")
    }
}
