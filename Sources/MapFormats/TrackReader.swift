import Foundation

/// Reads track files in any `TrackFormat` into a `Track`.
///
/// Every failure is a `FormatError` naming the file, line and column (and JSON path for
/// GeoJSON). Limits (see `TrackReadOptions`) bound the file size, the point count and the
/// nesting depth, so no input crashes or hangs the reader.
public enum TrackReader {
    /// Reads a file; the format comes from `options.format`, else the extension, else the content.
    public static func read(contentsOf url: URL, options: TrackReadOptions = TrackReadOptions()) throws(FormatError)
        -> Track
    {
        let name = url.isFileURL ? url.relativePath : url.absoluteString
        let named = SourceText(bytes: [], name: name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw named.named(.unreadable("no such file"))
        }
        guard !isDirectory.boolValue else { throw named.named(.unreadable("is a directory")) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
            size > options.maxBytes
        {
            throw named.named(.tooLarge(bytes: size, limit: options.maxBytes))
        }
        guard let bytes = readWholeFile(url.path, limit: options.maxBytes) else {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw named.named(.unreadable(error.localizedDescription))
            }
            return try read([UInt8](data), name: name, options: options)
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

/// The whole file read straight into an array (no intermediate `Data` copy), or nil when
/// it cannot be opened or sized; a file over `limit` bytes is read only up to `limit + 1`.
private func readWholeFile(_ path: String, limit: Int) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    guard fseek(file, 0, SEEK_END) == 0 else { return nil }
    let size = ftell(file)
    guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else { return nil }
    let capacity = min(size, limit + 1)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        guard let base = buffer.baseAddress else {
            count = 0
            return
        }
        var done = 0
        while done < capacity {
            let n = fread(base + done, 1, capacity - done, file)
            if n <= 0 { break }
            done += n
        }
        failed = done != capacity
        count = done
    }
    return failed ? nil : bytes
}
