import ArgumentParser

// Placeholder: replaced by the issue that builds `mapwright render`.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "(not yet available)")

    func run() throws {
        throw ValidationError("mapwright render is not available yet")
    }
}
