// JSON's value, parser and writer live in TrellisJSON (issue 26). The protocol's API speaks
// them in nearly every signature (params, results, frames), so every client of the protocol
// needs them: re-exported rather than asking each of the many importers for a second import.
@_exported import TrellisJSON
