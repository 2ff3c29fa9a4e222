import ArgumentParser

// Placeholder: replaced by the issue that builds `mapwright polyline`.
struct PolylineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "polyline", abstract: "(not yet available)")

    func run() throws {
        throw ValidationError("mapwright polyline is not available yet")
    }
}
