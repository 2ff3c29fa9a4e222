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
        if CommandLine.arguments.dropFirst().first == "render" {
            // A one-shot process: grow the heap 64 MB at a time instead of glibc's 128 KB. Making
            // a GL context (llvmpipe's scenes and bins, LLVM) otherwise grows the GL thread's
            // arena in hundreds of small steps, each an mprotect and a cleared calloc: 5–7 ms of
            // a ~95 ms cold render (medians of 15 interleaved runs). The pad is address space,
            // not memory, until it is used; long-running commands (serve, view) keep glibc's
            // default, which gives freed memory back sooner.
            setMallocTopPad(64 << 20)
            // `render` starts its renderer before the arguments are parsed (see RenderCommand.startEarly).
            RenderCommand.startEarly()
        }
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
        // A renderer started early and not used is finished before the teardown, so that the
        // teardown never runs under its set-up.
        RenderCommand.finishEarly()
        MapRenderer.shutdownAll()
        Foundation.exit(status)
    }

    /// glibc's `mallopt(M_TOP_PAD, bytes)` (M_TOP_PAD is -2 in <malloc.h>), looked up at run time:
    /// Swift's Glibc module leaves `mallopt` out. Does nothing where it is missing (another libc).
    static func setMallocTopPad(_ bytes: Int32) {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-2, bytes)
    }
}
