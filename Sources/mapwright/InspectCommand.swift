import ArgumentParser

// Placeholder: replaced by the issue that builds `mapwright inspect`.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inspect", abstract: "(not yet available)")

    func run() throws {
        throw ValidationError("mapwright inspect is not available yet")
    }
}
