import Foundation

/// A 4×4 matrix of doubles stored column-major (OpenGL order): element (row r, column c)
/// is `m[c * 4 + r]`. Operations post-multiply, like gl-matrix: `m.translated(v)` is
/// `m · T(v)`, so the last operation applied is the first one a vertex sees.
struct Matrix4: Equatable, Sendable {
    var m: [Double]

    static let identity = Matrix4(m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    subscript(row: Int, column: Int) -> Double {
        get { m[column * 4 + row] }
        set { m[column * 4 + row] = newValue }
    }

    static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        var out = Matrix4(m: [Double](repeating: 0, count: 16))
        for c in 0..<4 {
            for r in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a[r, k] * b[k, c] }
                out[r, c] = s
            }
        }
        return out
    }

    /// `self · v` for a column vector.
    func transform(_ v: (Double, Double, Double, Double)) -> (Double, Double, Double, Double) {
        let x = v.0, y = v.1, z = v.2, w = v.3
        return (
            m[0] * x + m[4] * y + m[8] * z + m[12] * w,
            m[1] * x + m[5] * y + m[9] * z + m[13] * w,
            m[2] * x + m[6] * y + m[10] * z + m[14] * w,
            m[3] * x + m[7] * y + m[11] * z + m[15] * w
        )
    }

    func translated(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        var t = Matrix4.identity
        t[0, 3] = x; t[1, 3] = y; t[2, 3] = z
        return self * t
    }

    func scaled(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        var s = Matrix4.identity
        s[0, 0] = x; s[1, 1] = y; s[2, 2] = z
        return self * s
    }

    /// Rotation about the x axis by `rad`: y' = cos·y − sin·z, z' = sin·y + cos·z.
    func rotatedX(_ rad: Double) -> Matrix4 {
        var r = Matrix4.identity
        let c = cos(rad), s = sin(rad)
        r[1, 1] = c; r[1, 2] = -s; r[2, 1] = s; r[2, 2] = c
        return self * r
    }

    /// Rotation about the z axis by `rad`: x' = cos·x − sin·y, y' = sin·x + cos·y.
    func rotatedZ(_ rad: Double) -> Matrix4 {
        var r = Matrix4.identity
        let c = cos(rad), s = sin(rad)
        r[0, 0] = c; r[0, 1] = -s; r[1, 0] = s; r[1, 1] = c
        return self * r
    }

    /// The OpenGL perspective projection (gl-matrix's `mat4.perspective`): vertical field of
    /// view `fovy` radians, `aspect` = width / height, depth mapped to −1…1 for near…far.
    static func perspective(fovy: Double, aspect: Double, near: Double, far: Double) -> Matrix4 {
        let f = 1 / tan(fovy / 2)
        var p = Matrix4(m: [Double](repeating: 0, count: 16))
        p[0, 0] = f / aspect
        p[1, 1] = f
        p[2, 2] = (far + near) / (near - far)
        p[3, 2] = -1
        p[2, 3] = 2 * far * near / (near - far)
        return p
    }
}
