@_exported import FuzzSupport
import JOSE

/// The oracle of the JOSE targets: FuzzSupport's one ``FuzzSupport/ErrorOracle`` over `JOSEError`.
public typealias JOSEErrorOracle = ErrorOracle<JOSEError>
