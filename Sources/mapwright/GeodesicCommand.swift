import ArgumentParser

// Placeholder: replaced by the issue that builds `mapwright geodesic`.
struct GeodesicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "geodesic", abstract: "(not yet available)")

    func run() throws {
        throw ValidationError("mapwright geodesic is not available yet")
    }
}
