import ArgumentParser
import Foundation
import MapRenderGL

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
            AnimateCommand.self,
            DemoCommand.self,
            ViewCommand.self,
            TilesCommand.self,
            ServeCommand.self,
        ]
    )

    /// Parses and runs the command like ArgumentParser's own `main()`, printing errors the same
    /// way, then tears every GL renderer down (`MapRenderer.shutdownAll`: contexts destroyed on
    /// their own threads after the work they are on, EGL displays terminated, llvmpipe's threads
    /// joined) before `exit` runs the C++ static destructors of LLVM and Mesa, which must never
    /// run under GL work (see `GLLifetime`). An `atexit` handler does the same for any other
    /// path out of the process.
    static func main() {
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    FileHandle.standardError.write(Data((message + "\n").utf8))
                }
            }
            status = code.rawValue
        }
        MapRenderer.shutdownAll()
        Foundation.exit(status)
    }
}
