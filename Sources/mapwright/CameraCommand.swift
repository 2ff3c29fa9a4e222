import ArgumentParser

// Placeholder: replaced by the issue that builds `mapwright camera`.
struct CameraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "camera", abstract: "(not yet available)")

    func run() throws {
        throw ValidationError("mapwright camera is not available yet")
    }
}
