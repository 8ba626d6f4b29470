// The geometry types (Point, Size, Rect, EdgeInsets, Vector, Transform3D, Quaternion) live in
// TrellisGeometry, below both the engine and the dynamics. Re-exported so that everything built
// on TrellisCore speaks them without importing a second module.
@_exported import TrellisGeometry
