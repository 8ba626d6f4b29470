/// The one page trellis-web serves: plain HTML with its style and script inline, so the binary
/// is the whole viewer (no files to install beside it, no npm, nothing fetched from elsewhere).
enum ViewerPage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Trellis</title>
    <style>
    """# + ViewerPageStyle.css + #"""
    </style>
    </head>
    <body>
    <header id="status">
      <span>session <b id="status-session">–</b></span>
      <span>seq <b id="status-seq">–</b></span>
      <span>views <b id="status-views">0</b></span>
      <span>fps <b id="status-fps">0</b></span>
      <span id="status-state">connecting…</span>
    </header>
    <main>
      <div id="stage" aria-label="the session's collection view"></div>
    </main>
    <script>
    """# + ViewerPageScript.javascript + #"""
    </script>
    </body>
    </html>

    """#
}
