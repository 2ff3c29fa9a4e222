import Foundation
import MapFormats

extension SceneOptions {
    /// Names of the 3D overlays the flags add, in order, for error messages.
    var threeDOverlayNames: [String] {
        columns.enumerated().map { "--column #\($0.offset + 1) '\($0.element)'" }
            + extrusions.map { "--extrude \($0)" }
            + arcs.enumerated().map { "--arc #\($0.offset + 1) '\($0.element)'" }
    }

    /// Adds `--column`, `--extrude` and `--arc` overlays (in that order).
    func apply3DFlags(to overlays: inout [SceneDocument.OverlaySpec], command: String) throws {
        for (i, text) in columns.enumerated() {
            let flag = "--column #\(i + 1) '\(text)'"
            let v = try Self.numbers(text, count: 3...4, flag: flag, shape: "LAT,LON,HEIGHT_M[,RADIUS_M]", command: command)
            var o = SceneDocument.OverlaySpec(type: "column")
            o.position = [v[0], v[1]]
            o.height = v[2]
            if v.count == 4 { o.radius = v[3] }
            o.color = columnColor
            overlays.append(o)
        }
        if (heightProperty != nil || baseProperty != nil) && extrusions.isEmpty {
            throw CLIError("mapwright \(command): --height-property and --base-property apply to --extrude FILE")
        }
        for file in extrusions {
            var o = SceneDocument.OverlaySpec(type: "extrusion")
            o.file = file == "-" ? file : URL(fileURLWithPath: file).path
            o.heightProperty = heightProperty ?? "height"
            o.baseProperty = baseProperty
            o.color = columnColor == nil ? nil : columnColor
            overlays.append(o)
        }
        for (i, text) in arcs.enumerated() {
            let flag = "--arc #\(i + 1) '\(text)'"
            let v = try Self.numbers(text, count: 4...5, flag: flag, shape: "LAT1,LON1,LAT2,LON2[,HEIGHT_M]", command: command)
            var o = SceneDocument.OverlaySpec(type: "arc")
            o.from = [v[0], v[1]]
            o.to = [v[2], v[3]]
            if v.count == 5 { o.height = v[4] }
            overlays.append(o)
        }
    }

    static func numbers(_ text: String, count: ClosedRange<Int>, flag: String, shape: String, command: String = "render") throws -> [Double]
    {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard count.contains(parts.count) else { throw CLIError("mapwright \(command): \(flag): expected \(shape)") }
        return try parts.map { p in
            guard let v = Double(p), v.isFinite else {
                throw CLIError("mapwright \(command): \(flag): '\(p)' is not a number (expected \(shape))")
            }
            return v
        }
    }
}
