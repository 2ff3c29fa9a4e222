import Foundation
import GeoKit
import MapCamera
import MapRender
@testable import MapRenderGL
import MapScene
import Testing

/// 3D on the map through the GL renderer: columns land where the camera's math puts them,
/// solids hide what lies behind them, the sky fills the view above the horizon, and extruded
/// buildings hide each other at four bearings (reference images, each looked at when recorded).
@Suite struct ThreeDTests {
    static let center = LatLng(lat: 37.7651335, lon: -122.4191805)
    static let white = Color(rgb: 0xFFFFFF)

    /// A point `dx`, `dy` world pixels from the centre at zoom 16 (x east, y south).
    static func at(_ dx: Double, _ dy: Double) -> LatLng {
        let ws = 512 * pow(2, 16.0)
        let c = MapPoint(center)
        return MapPoint(x: c.x + dx / ws, y: c.y + dy / ws).latLng
    }

    /// Max channel distance of a pixel from an RGB triple.
    static func distance(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)?, _ r: Int, _ g: Int, _ b: Int) -> Int {
        guard let p else { return 999 }
        return max(abs(Int(p.r) - r), abs(Int(p.g) - g), abs(Int(p.b) - b))
    }

    /// The top of a red column (radius 6 m, height 60 m) seen at the pixel `Camera.project(lat, lon,
    /// height: 60)` gives, lit as a face pointing up; 14 px above it the white background; at
    /// pitch ≥ 45 a darker wall 14 px below it.
    ///
    /// Expected top colour, by hand from the lighting model (MapRenderGL `ThreeD`): the light
    /// direction is (−0.6·right − 0.4·up + z) normalised, so its z component is
    /// 1/√(0.36 + 0.16 + 1) = 0.8111; a face pointing up is lit 0.45 + 0.55 · 0.8111 = 0.8961 of its
    /// colour: red 255 → 228.5. Tolerance 6 per channel (8-bit rounding, MSAA is not involved at
    /// the centre of a 12 px wide top).
    @Test(arguments: [(0.0, 0.0), (0, 30), (45, 0), (45, 30), (60, 0), (60, 30)])
    func columnTopLandsWhereTheCameraSays(pitch: Double, bearing: Double) throws {
        let renderer = try RenderHarness.renderer()
        // Above the centre at pitch 0 (so the top is further from the centre than the base and
        // background lies above it), below it when pitched (the column rises up the screen).
        let ground = pitch == 0 ? Self.at(25, -50) : Self.at(20, 40)
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: bearing, pitch: pitch,
            size: ScreenSize(width: 320, height: 320))
        var scene = Scene(background: Self.white)
        scene.add(.column(try Column(position: ground, height: 60, radius: 6, color: Color(rgb: 0xFF0000))))
        let frame = try renderer.render(scene: scene, camera: cam)
        let top = try #require(cam.project(ground, height: 60))
        let x = Int(top.x.rounded(.down)), y = Int(top.y.rounded(.down))
        let p = frame.pixel(x: x, y: y)
        #expect(Self.distance(p, 228, 0, 0) <= 6, "top centre at (\(x), \(y)): \(String(describing: p))")
        #expect(Self.distance(frame.pixel(x: x, y: y - 14), 255, 255, 255) == 0, "above the top")
        if pitch >= 45 {
            let wall = try #require(frame.pixel(x: x, y: y + 14))
            #expect(wall.g < 10 && wall.b < 10 && Int(wall.r) < 228 - 15, "wall below the top: \(wall)")
        }
    }

    /// At pitch 60 a near, tall blue column hides the part of a red route that runs behind it;
    /// the rest of the route is seen.
    @Test(arguments: [0.0, 30])
    func nearColumnHidesTheRouteBehindIt(bearing: Double) throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: bearing, pitch: 60,
            size: ScreenSize(width: 320, height: 240))
        var scene = Scene(background: Self.white)
        // The route runs 40 world px behind the column (further from the viewer, "up" the screen).
        let a = (bearing * .pi / 180)
        func rotated(_ x: Double, _ y: Double) -> LatLng {
            // Screen-aligned offsets turned into map offsets for this bearing.
            Self.at(x * cos(a) - y * sin(a), x * sin(a) + y * cos(a))
        }
        scene.add(
            .polyline(
                try Polyline(
                    coordinates: [rotated(-120, -40), rotated(120, -40)],
                    style: LineStyle(width: .pixels(8), color: Color(rgb: 0xFF0000)))))
        scene.add(.column(try Column(position: rotated(0, 0), height: 80, radius: 15, color: Color(rgb: 0x0000FF))))
        let frame = try renderer.render(scene: scene, camera: cam)
        let behind = try #require(cam.project(rotated(0, -40)))
        let p = try #require(frame.pixel(x: Int(behind.x), y: Int(behind.y)))
        #expect(p.b > 100 && p.r < 40, "route behind the column: \(p)")
        let aside = try #require(cam.project(rotated(-90, -40)))
        let q = try #require(frame.pixel(x: Int(aside.x), y: Int(aside.y)))
        #expect(q.r > 200 && q.b < 40, "route beside the column: \(q)")
    }

    /// The inverse the cylinder impostors unproject their rays with: a pitched, rotated camera's
    /// view-projection matrix times it is the identity (to 1e-9 of the matrix's scale), and a
    /// singular matrix has none.
    @Test func matrixInverse() throws {
        let cam = Camera(center: Self.center, zoom: 16, bearing: 30, pitch: 60, size: ScreenSize(width: 320, height: 240))
        let m = cam.viewProjectionMatrix(relativeTo: MapPoint(Self.center))
        let inv = try #require(ThreeD.inverse(m))
        for r in 0..<4 {
            for c in 0..<4 {
                let x = (0..<4).reduce(0.0) { $0 + m[$1 * 4 + r] * inv[c * 4 + $1] }
                #expect(abs(x - (r == c ? 1 : 0)) < 1e-9, "(\(r), \(c)): \(x)")
            }
        }
        #expect(ThreeD.inverse([Double](repeating: 0, count: 16)) == nil)
        #expect(ThreeD.inverse([1, 2, 3, 4, 2, 4, 6, 8, 0, 0, 1, 0, 0, 0, 0, 1]) == nil)
    }

    /// A round column seen straight down its axis (pitch 0, at the centre of the view) is its
    /// top: a disc whose radius is the distance between what `Camera.project(…, height:)` gives
    /// for the axis and for a point on the rim, both at the top. Summing each pixel's coverage
    /// (1 − green / 255: red over white) gives the disc's area πR² within 1 %, and the row
    /// through the centre is 2R wide within half a pixel: the impostor's ray cast (down the axis
    /// itself at the centre pixel) and its antialiased outline, against the camera's own math.
    @Test(arguments: [1.0, 2.0])
    func columnSeenDownItsAxisIsItsTopDisc(ratio: Double) throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: Self.center, zoom: 16, size: ScreenSize(width: 160, height: 160), pixelRatio: ratio)
        var scene = Scene(background: Self.white)
        scene.add(.column(try Column(position: Self.center, height: 100, radius: 25, color: Color(rgb: 0xFF0000))))
        let frame = try renderer.render(scene: scene, camera: cam)
        let top = try #require(cam.project(Self.center, height: 100))
        let east = MapPoint(x: MapPoint(Self.center).x + 25 * MapPoint.unitsPerMeter(atLatitude: Self.center.lat),
                            y: MapPoint(Self.center).y).latLng
        let rim = try #require(cam.project(east, height: 100))
        let radius = (rim.x - top.x) * ratio
        #expect(radius > 20 * ratio, "the top is \(radius) px round")
        var area = 0.0, row = 0.0
        let cy = Int((top.y * ratio).rounded(.down))
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let p = try #require(frame.pixel(x: x, y: y))
                let c = 1 - Double(p.g) / 255
                area += c
                if y == cy { row += c }
            }
        }
        let expected = Double.pi * radius * radius
        #expect(abs(area - expected) <= 0.01 * expected, "area \(area) px², πR² = \(expected)")
        #expect(abs(row - 2 * radius) <= 0.5, "row \(row) px, 2R = \(2 * radius)")
        // Lit as a face pointing up (see columnTopLandsWhereTheCameraSays): red 228.
        let centre = try #require(frame.pixel(x: Int(top.x * ratio), y: cy))
        #expect(Self.distance(centre, 228, 0, 0) <= 3, "top centre \(centre)")
    }

    /// The ray-cast column and the prism it replaced (smooth normals; still drawn when
    /// `columnImpostors` is off) give the same picture: at pitch 0, 45 and 70 and three bearings,
    /// for a tall column and a floating one in front of a red route, fewer than 1 % of the
    /// interior pixels (covered in both images, as are their four neighbours) differ by more than
    /// 24 in a channel (those few are on the rim between top and side), and the two cover the
    /// same pixels within 6 %: the prism is a polygon inscribed in the circle (its level of detail
    /// keeps a side per ~6 px, at least 12; a 12-gon has 4.5 % less area), and its fringes
    /// (`SolidFringe`) widen its outline by up to half a pixel where the impostor's coverage is
    /// centred on the silhouette.
    @Test(arguments: [(0.0, 0.0), (45, 20), (70, 0), (70, 200)])
    func impostorMatchesThePrism(pitch: Double, bearing: Double) throws {
        let impostor = try MapRenderer(samples: 0)
        let prism = try MapRenderer(samples: 0)
        prism.planner.columnImpostors = false
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: bearing, pitch: pitch, size: ScreenSize(width: 240, height: 240))
        var scene = Scene(background: Self.white)
        scene.add(
            .polyline(
                try Polyline(
                    coordinates: [Self.at(-100, -20), Self.at(100, -20)],
                    style: LineStyle(width: .pixels(6), color: Color(rgb: 0xFF0000)))))
        scene.add(
            .column(try Column(position: Self.at(10, 10), height: 70, radius: 18, color: Color(rgb: 0x0969DA), sides: 64)))
        scene.add(
            .column(
                try Column(
                    position: Self.at(-40, -30), height: 50, radius: 12, base: 20, color: Color(rgb: 0x1A7F37),
                    sides: 64)))
        let a = try impostor.render(scene: scene, camera: cam)
        let b = try prism.render(scene: scene, camera: cam)
        // Column pixels: blue or green well above red (the route is red, the background white).
        func column(_ f: Frame, _ x: Int, _ y: Int) -> Bool {
            guard let c = f.pixel(x: x, y: y) else { return false }
            return Int(c.r) + 40 < max(Int(c.g), Int(c.b))
        }
        var covered = (0, 0), interior = 0, differing = 0
        for y in 1..<(a.height - 1) {
            for x in 1..<(a.width - 1) {
                if column(a, x, y) { covered.0 += 1 }
                if column(b, x, y) { covered.1 += 1 }
                guard [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)].allSatisfy({
                    column(a, x + $0.0, y + $0.1) && column(b, x + $0.0, y + $0.1)
                }) else { continue }
                interior += 1
                let p = try #require(a.pixel(x: x, y: y)), q = try #require(b.pixel(x: x, y: y))
                if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 24 { differing += 1 }
            }
        }
        #expect(covered.1 > 2000, "the prism covers \(covered.1) px")
        #expect(abs(covered.0 - covered.1) <= covered.1 * 6 / 100, "covered: impostor \(covered.0), prism \(covered.1)")
        #expect(differing <= interior / 100, "\(differing) of \(interior) interior pixels differ")
    }

    /// A pixel-width route keeps its width on screen across a pitched view: an 8 px route
    /// running away from the viewer is 8 ± 1.5 px wide (counted across, at half coverage) near
    /// the bottom and near the top of the image at pitch 60.
    @Test func pixelWidthRoutesKeepTheirWidthUnderPitch() throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(center: Self.center, zoom: 16, pitch: 60, size: ScreenSize(width: 200, height: 300))
        var scene = Scene(background: Self.white)
        scene.add(
            .polyline(
                try Polyline(
                    coordinates: [Self.at(0, 300), Self.at(0, -2000)],
                    style: LineStyle(width: .pixels(8), color: Color(rgb: 0x000000)))))
        let frame = try renderer.render(scene: scene, camera: cam)
        for y in [40, 150, 280] {
            var dark = 0
            for x in 0..<frame.width {
                if let p = frame.pixel(x: x, y: y), p.r < 128 { dark += 1 }
            }
            #expect(abs(dark - 8) <= 1, "row \(y): \(dark) px wide")
        }
    }

    /// A line whose width is in metres lies on the ground: at the centre row of a pitch-60 view it
    /// is `30 m · px/m` wide (px/m = 512·2^16 / (40 075 016.686 · cos 37.765°), Web Mercator at the
    /// centre latitude; ±1.5 px), and it narrows with distance (the top row under 3/4 of the bottom's).
    @Test func metreWidthLinesLieOnTheGround() throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(center: Self.center, zoom: 16, pitch: 60, size: ScreenSize(width: 200, height: 300))
        var scene = Scene(background: Self.white)
        scene.add(
            .polyline(
                try Polyline(
                    coordinates: [Self.at(0, 300), Self.at(0, -2000)],
                    style: LineStyle(width: .meters(30), color: Color(rgb: 0x000000)))))
        let frame = try renderer.render(scene: scene, camera: cam)
        func width(_ y: Int) -> Int {
            (0..<frame.width).filter { x in frame.pixel(x: x, y: y).map { $0.r < 128 } ?? false }.count
        }
        let ppm = 512 * pow(2, 16.0) / (40_075_016.686 * cos(Self.center.lat * .pi / 180))
        #expect(abs(Double(width(150)) - 30 * ppm) <= 1.5, "centre row \(width(150)) px, expected \(30 * ppm)")
        #expect(Double(width(20)) < 0.75 * Double(width(290)), "top \(width(20)) px, bottom \(width(290)) px")
    }

    /// A circle in pixels and a dot marker stay round on screen at pitch 60 (bearing 30): the
    /// 20 px radius disc is 40 ± 2 px across both horizontally and vertically.
    @Test func pixelCirclesStayRoundUnderPitch() throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: 30, pitch: 60, size: ScreenSize(width: 200, height: 200))
        var scene = Scene(background: Self.white)
        scene.add(.circle(try Circle(center: Self.center, radius: .pixels(20), fill: .black, stroke: nil)))
        let frame = try renderer.render(scene: scene, camera: cam)
        var across = 0, down = 0
        for k in 0..<200 {
            if let p = frame.pixel(x: k, y: 100), p.r < 128 { across += 1 }
            if let p = frame.pixel(x: 100, y: k), p.r < 128 { down += 1 }
        }
        #expect(abs(across - 40) <= 2 && abs(down - 40) <= 2, "across \(across), down \(down)")
    }

    /// At pitch 80 the rows above the horizon show the sky (blue above, not the map's green),
    /// and the bottom rows the map.
    @Test(arguments: [0.0, 45])
    func skyAboveTheHorizonAtPitch80(bearing: Double) throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: LatLng(lat: 20, lon: 10), zoom: 4, bearing: bearing, pitch: 80,
            size: ScreenSize(width: 320, height: 240))
        var scene = Scene(background: Color(rgb: 0xAAD3DF))
        scene.add(
            .polygon(
                try Polygon(
                    exterior: [
                        LatLng(lat: -80, lon: -179), LatLng(lat: -80, lon: 179),
                        LatLng(lat: 80, lon: 179), LatLng(lat: 80, lon: -179),
                    ],
                    fill: Color(rgb: 0x2DA44E))))
        let frame = try renderer.render(scene: scene, camera: cam)
        #expect(cam.horizonY > 20, "the horizon is in view (\(cam.horizonY))")
        for y in 0..<4 {
            for x in stride(from: 0, to: 320, by: 40) {
                let p = try #require(frame.pixel(x: x, y: y))
                #expect(p.b > p.g && p.b > p.r + 40, "sky at (\(x), \(y)): \(p)")
            }
        }
        let ground = try #require(frame.pixel(x: 160, y: 235))
        #expect(Self.distance(ground, 0x2D, 0xA4, 0x4E) <= 2, "the map at the bottom: \(ground)")
    }

    /// The haze never reaches the centre of the view: as MapLibre's sky blends its fog over the
    /// ground from halfway between the centre and the horizon (`fog-ground-blend` 0.5), at pitch
    /// 85 (the horizon 31 px above the centre of a 240 px view) the ground at the centre and a
    /// little above it keeps the fill's colour, while 3 px below the horizon it is mostly haze.
    @Test(arguments: [240.0, 768])
    func theCentreOfAViewAtPitch85IsClear(height: Double) throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: 0, pitch: 85, size: ScreenSize(width: 320, height: height))
        let frame = try renderer.render(scene: Scene(background: Color(rgb: 0x2DA44E)), camera: cam)
        let cy = cam.centerPoint.y, hy = cam.horizonY
        #expect(cy - hy > 20 && cy - hy < 0.2 * height, "horizon \(cy - hy) px above the centre")
        for y in [Int(cy), Int(cy - (cy - hy) * 0.45)] {
            #expect(Self.distance(frame.pixel(x: 160, y: y), 0x2D, 0xA4, 0x4E) == 0, "ground at y \(y)")
        }
        let hazy = try #require(frame.pixel(x: 160, y: Int(hy) + 3))
        #expect(Int(hazy.r) > 0x2D + 100, "just below the horizon: \(hazy)")
    }

    /// 3D objects in the horizon's haze fade as the ground beneath them does. The sky's fog
    /// (`Shaders.skyFragment`) lays the haze over a ground pixel `a` of the way up a band of
    /// `ThreeD.sky(…).band` pixels below the horizon with weight f = a(2 − a)/2 + a/2. A short,
    /// wide red column (a cylinder, or a hexagonal prism drawn as a lit solid) is placed so that
    /// its foot lies 40 % of the way up the band (f = 0.52); its top is lit 0.8961 of red (see
    /// `columnTopLandsWhereTheCameraSays`), so its centre must be red · 0.8961 · (1 − f) + haze · f,
    /// with f from the foot's own row by `Camera.project` — and the bare ground in the foot's row,
    /// beside it, grey · (1 − f) + haze · f. A column below the band keeps its colour.
    @Test(arguments: [24, 6])
    func columnsFadeIntoTheHazeAsTheGroundDoes(sides: Int) throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: 0, pitch: 80, size: ScreenSize(width: 320, height: 240))
        let grey = Color(rgb: 0x707070)
        let sky = try #require(ThreeD.sky(camera: cam, background: grey))
        let haze = (Int(sky.haze.r), Int(sky.haze.g), Int(sky.haze.b))
        func fog(_ y: Double) -> Double {
            let a = min(max(1 + (cam.horizonY - y) / sky.band, 0), 1)
            return a * (2 - a) * 0.5 + a * 0.5
        }
        // Straight ahead, far enough that the foot lies 40 % of the way up the band.
        let target = cam.horizonY + sky.band * 0.6
        var near = 0.0, far = -1e6
        for _ in 0..<80 {
            let mid = (near + far) / 2
            let y = try #require(cam.project(Self.at(0, mid))).y
            if y > target { near = mid } else { far = mid }
        }
        let foot = Self.at(0, near)
        let footY = try #require(cam.project(foot)).y
        let f = fog(footY)
        #expect(abs(f - 0.52) < 0.01, "fog at the foot \(f)")
        // Radius 60 m, 4 m tall: the top is a wide, flat ellipse a few pixels above the foot.
        let nearFoot = Self.at(0, 60)
        var scene = Scene(background: grey)
        for p in [foot, nearFoot] {
            scene.add(.column(try Column(position: p, height: 4, radius: 60, color: Color(rgb: 0xFF0000), sides: sides)))
        }
        let frame = try renderer.render(scene: scene, camera: cam)
        func mix(_ c: Double, _ h: Int, _ f: Double) -> Int { Int((c * (1 - f) + Double(h) * f).rounded()) }
        let top = try #require(cam.project(foot, height: 4))
        let p = frame.pixel(x: Int(top.x), y: Int(top.y))
        let expected = (mix(228.5, haze.0, f), mix(0, haze.1, f), mix(0, haze.2, f))
        #expect(Self.distance(p, expected.0, expected.1, expected.2) <= 4,
                "top of the far column: \(String(describing: p)), expected \(expected) (f \(f))")
        // The bare ground in the foot's row, well beside the column (60 m is about 64 px here).
        let row = Int(footY)
        let g = fog(Double(row) + 0.5)
        let ground = frame.pixel(x: 20, y: row)
        #expect(Self.distance(ground, mix(112, haze.0, g), mix(112, haze.1, g), mix(112, haze.2, g)) <= 2,
                "ground beside it: \(String(describing: ground)), f \(g)")
        // Below the band: unfogged.
        let nearTop = try #require(cam.project(nearFoot, height: 4))
        #expect(nearTop.y > cam.horizonY + sky.band + 10)
        let q = frame.pixel(x: Int(nearTop.x), y: Int(nearTop.y))
        #expect(Self.distance(q, 228, 0, 0) <= 4, "top of the near column: \(String(describing: q))")
    }

    /// Buildings (one with a courtyard) of several heights, seen at pitch 50 from four bearings.
    static func buildings() throws -> Scene {
        var s = Scene(background: Color(rgb: 0xF6F8FA))
        // A road under them all.
        s.add(
            .polyline(
                try Polyline(
                    coordinates: [at(-110, 0), at(110, 0)],
                    style: LineStyle(width: .pixels(6), color: Color(rgb: 0xD4A72C)))))
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [LatLng] {
            [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)]
        }
        s.add(.extrusion(try Extrusion(exterior: box(-60, -50, 40, 30), height: 60, color: Color(rgb: 0x0969DA))))
        s.add(.extrusion(try Extrusion(exterior: box(-20, -30, 30, 30), height: 25, color: Color(rgb: 0xCF222E))))
        s.add(
            .extrusion(
                try Extrusion(
                    exterior: box(20, 10, 50, 50), holes: [box(35, 25, 20, 20)], height: 35,
                    color: Color(rgb: 0x8C959F))))
        s.add(
            .extrusion(try Extrusion(exterior: box(-70, 15, 30, 20), height: 12, base: 4, color: Color(rgb: 0x1A7F37))))
        s.add(.column(try Column(position: at(0, 40), height: 45, radius: 6, color: Color(rgb: 0xBF8700))))
        return s
    }

    @Test(arguments: [0.0, 90, 180, 270])
    func extrudedBuildingsAtFourBearings(bearing: Double) throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: Self.center, zoom: 16, bearing: bearing, pitch: 50,
            size: ScreenSize(width: 240, height: 200))
        let frame = try renderer.render(scene: try Self.buildings(), camera: cam)
        try expectImage(frame, named: "buildings-pitch50-bearing\(Int(bearing))")
    }

    /// Arcs in a world view at pitch 45 (Paris to Rome, Madrid and New York) over a 10° graticule,
    /// with dot markers (upright, on top) at the cities.
    @Test func arcsInAWorldView() throws {
        let renderer = try RenderHarness.renderer()
        let cam = Camera(
            center: LatLng(lat: 44, lon: -34), zoom: 1.2, bearing: 0, pitch: 45,
            size: ScreenSize(width: 320, height: 200))
        var scene = Scene(background: Color(rgb: 0xAAD3DF))
        let grid = LineStyle(width: .pixels(1), color: Color(rgb: 0x6E7781))
        for lat in stride(from: -80.0, through: 80, by: 10) {
            scene.add(
                .polyline(
                    try Polyline(
                        coordinates: stride(from: -180.0, through: 180, by: 10).map { LatLng(lat: lat, lon: $0) },
                        style: grid)))
        }
        for lon in stride(from: -180.0, through: 180, by: 10) {
            scene.add(
                .polyline(
                    try Polyline(coordinates: [LatLng(lat: -80, lon: lon), LatLng(lat: 80, lon: lon)], style: grid)))
        }
        let paris = LatLng(lat: 48.8566, lon: 2.3522)
        let ends = [
            (LatLng(lat: 41.9028, lon: 12.4964), 0xCF222E), (LatLng(lat: 40.4168, lon: -3.7038), 0x1A7F37),
            (LatLng(lat: 40.7128, lon: -74.006), 0x8250DF),
        ]
        for (to, c) in ends {
            scene.add(
                .arc(
                    try Arc(
                        from: paris, to: to, width: 3, fromColor: Color(rgb: 0x0969DA), toColor: Color(rgb: UInt32(c))))
            )
            scene.add(.marker(try Marker(position: to, color: Color(rgb: UInt32(c)))))
        }
        scene.add(.marker(try Marker(position: paris, color: Color(rgb: 0x0969DA))))
        let frame = try renderer.render(scene: scene, camera: cam)
        try expectImage(frame, named: "arcs-world-pitch45")
    }
}
