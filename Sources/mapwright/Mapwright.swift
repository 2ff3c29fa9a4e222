import ArgumentParser

/// The `mapwright` command-line tool: a thin layer over the library modules.
@main
struct Mapwright: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapwright",
        abstract: "Draw things on maps and keep them glued there; a geo toolbox for scripts.",
        subcommands: [
            GeodesicCommand.self,
            PolylineCommand.self,
            InspectCommand.self,
            CameraCommand.self,
            RenderCommand.self,
            DemoCommand.self,
        ]
    )
}
