import ArgumentParser
import Foundation

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
    /// way, then ends the process with `_exit` instead of `exit`.
    ///
    /// Mesa's llvmpipe keeps rasteriser threads alive for the process-wide EGL display; running
    /// the C++ static destructors of `exit` (LLVM's among them) while those threads live can
    /// corrupt the heap (seen as rare aborts after all output was written). Every file the tool
    /// writes is complete (and atomically renamed) before this point, and standard output and
    /// error are flushed, so nothing is lost by skipping the destructors.
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
        fflush(nil)  // every open output stream
        _exit(status)
    }
}
