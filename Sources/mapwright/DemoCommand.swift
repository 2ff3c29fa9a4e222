import ArgumentParser

// Placeholder: replaced by the issue that builds `mapwright demo`.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "(not yet available)")

    func run() throws {
        throw ValidationError("mapwright demo is not available yet")
    }
}
