import Foundation

/// Reads track files in any `TrackFormat` into a `Track`.
///
/// Every failure is a `FormatError` naming the file, line and column (and JSON path for
/// GeoJSON). Limits (see `TrackReadOptions`) bound the file size, the point count and the
/// nesting depth, so no input crashes or hangs the reader.
public enum TrackReader {
    /// Reads a file; the format comes from `options.format`, else the extension, else the content.
    /// Pipes (`<(…)`, `/dev/stdin`) are read as files are; a URL whose relative path is `-` reads
    /// standard input (see `InputFile`).
    public static func read(contentsOf url: URL, options: TrackReadOptions = TrackReadOptions()) throws(FormatError)
        -> Track
    {
        let stdin = url.isFileURL && url.relativePath == "-"
        let name = stdin ? InputFile.displayName("-") : url.isFileURL ? url.relativePath : url.absoluteString
        let named = SourceText(bytes: [], name: name)
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(stdin ? "-" : url.path, limit: options.maxBytes, rejects: looksBinary)
        } catch {
            if case .tooLarge(let size?, let limit) = error.kind { throw named.named(.tooLarge(bytes: size, limit: limit)) }
            throw named.named(.unreadable(error.reason))
        }
        return try read(bytes, name: name, options: options)
    }

    /// Reads bytes already in memory; `name` (a file name, optional) is used for the
    /// extension-based format detection and in error messages.
    public static func read(_ bytes: [UInt8], name: String? = nil, options: TrackReadOptions = TrackReadOptions())
        throws(FormatError) -> Track
    {
        let source = SourceText(bytes: bytes, name: name)
        guard bytes.count <= options.maxBytes else {
            throw source.named(.tooLarge(bytes: bytes.count, limit: options.maxBytes))
        }
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw source.named(.noPoints("the file is empty"))
        }
        guard !looksBinary(bytes) else { throw source.named(.binary()) }
        let format = options.format ?? TrackFormat.detect(path: name ?? "", bytes: bytes.prefix(4096)) ?? .csv
        do {
            switch format {
            case .csv: return try CSVReader(source: source, options: options).read()
            case .gpx: return try GPXReader(source: source, options: options).read()
            case .geojson: return try GeoJSONReader(source: source, options: options).read()
            case .polyline: return try PolylineFileReader(source: source, options: options).read()
            }
        } catch let e as FormatError {
            throw e
        } catch {
            throw source.named(.unreadable("\(error)"))
        }
    }
}

