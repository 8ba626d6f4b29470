/// The CLI's exit codes (sysexits.h), listed in `trellis --help`.
enum Exit {
    static let usage: Int32 = 64        // EX_USAGE: bad arguments (argument-parser's own code too)
    static let refused: Int32 = 65      // EX_DATAERR: the server refused the request
    static let noInput: Int32 = 66      // EX_NOINPUT: a --file that cannot be read
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE: cannot connect to or start the server
    static let software: Int32 = 70     // EX_SOFTWARE: an unexpected reply or internal error
    static let cannotCreate: Int32 = 73 // EX_CANTCREAT: an output file (trellis run --junit) cannot be written

    static let help = """
        Exit codes:
          0   success
          64  usage error (bad arguments or values)
          65  refused by the server (invalid_update, out_of_range, …); its message
              (UIKit's text for a refused batch) goes to stderr; or a gesture's
              value outside the server's range, refused before anything is sent
          66  a --file that cannot be read
          69  cannot connect to or start the server
          70  internal error (an unexpected reply)
          128+N  stopped by signal N (SIGINT 130, SIGTERM 143): attach, and drag or
              fling once their pan is cancelled
        trellis run: 0 every test passed, 65 a test failed or the run bailed
        out (a failed new), 64 a script syntax
        error (file:line on stderr), 66 a script that cannot be read, 69 no server
        on --socket, 73 the --junit file cannot be written
        """
}
