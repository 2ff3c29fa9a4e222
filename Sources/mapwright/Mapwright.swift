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
            SymbolsCommand.self,
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
            // A one-shot process: one heap on huge pages (see `prepareOneShotHeap`). Long-running
            // commands (serve, view) keep glibc's defaults, which give freed memory back sooner.
            prepareOneShotHeap()
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

    /// Sets glibc's heap up for a process that renders once and exits. A cold render was
    /// spending a third of its CPU time in page faults (about 14 000 for the standard scene:
    /// Mesa's and LLVM's allocations, the framebuffer, the read-back and PNG buffers), so:
    /// - every thread allocates from the main heap (`M_ARENA_MAX` 1) and everything under 32 MB
    ///   comes from it too (`M_MMAP_THRESHOLD`), instead of thread arenas and fresh mappings;
    /// - the heap grows 64 MB at a time (`M_TOP_PAD`) instead of 128 KB: making a GL context
    ///   otherwise grew it in hundreds of small steps, each an mprotect and a cleared calloc;
    /// - the heap is grown once now and marked `MADV_HUGEPAGE`, so the kernel backs it with 2 MB
    ///   pages (one fault each) where transparent huge pages are enabled for `madvise` (the
    ///   default on Debian and Ubuntu); elsewhere the advice does nothing.
    /// The same as `GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1:…`, which
    /// only works when set before the process starts. Median cold render of the standard scene
    /// 93 → 76 ms (15 interleaved runs). `mallopt` is looked up at run time (Swift's Glibc
    /// module leaves it out); with another libc nothing changes.
    static func prepareOneShotHeap() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt"),
              let mallocSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        // Called through a pointer: the optimiser drops a plain malloc that is freed unused.
        let allocate = unsafeBitCast(mallocSymbol, to: Malloc.self)
        // <malloc.h>: M_TOP_PAD -2, M_MMAP_THRESHOLD -3, M_ARENA_MAX -8.
        _ = mallopt(-8, 1)
        _ = mallopt(-3, 32 << 20)
        _ = mallopt(-2, 64 << 20)
        guard let before = sbrk(0) else { return }
        // More than the free space at the heap's top, so that the heap grows (by it and the pad).
        free(allocate(16 << 20))
        guard let after = sbrk(0), after > before else { return }
        let huge = 2 << 20
        let start = (Int(bitPattern: before) + huge - 1) & ~(huge - 1)
        let end = Int(bitPattern: after) & ~(huge - 1)
        guard end > start, let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(base, end - start, 14)  // MADV_HUGEPAGE
    }
}
