/// The one page trellis-web serves: plain HTML with its style and scripts inline, so the binary
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
      <span>layout <b id="status-layout">–</b></span>
      <span>views <b id="status-views">0</b></span>
      <span>fps <b id="status-fps">0</b></span>
      <span>pooled <b id="status-pooled">0</b></span>
      <span>created <b id="status-created">0</b></span>
      <span>reused <b id="status-reused">0</b></span>
      <span><b id="status-motion">at rest</b></span>
      <span id="status-note"></span>
      <span id="status-state">connecting…</span>
    </header>
    <nav id="toolbar" hidden>
      <button data-action="insert">Insert</button>
      <button data-action="delete">Delete</button>
      <button data-action="move">Move</button>
      <select id="layout-choice" aria-label="layout">
        <option>flow</option><option>line</option><option>carousel</option><option>coverFlow</option>
        <option>circle</option><option>stack</option><option>springy</option>
      </select>
      <span class="hint">drag or scroll to pan · flick to fling · click to select · choose a layout to switch to it</span>
    </nav>
    <main>
      <div id="stage" aria-label="the session's collection view"></div>
      <section id="sessions">
        <h1>Sessions</h1>
        <table>
          <thead><tr><th>name</th><th>layout</th><th>items</th><th>sections</th><th>viewers</th><th>clock</th></tr></thead>
          <tbody id="sessions-body"></tbody>
        </table>
        <p id="sessions-empty" hidden>No sessions yet: <code>trellis new NAME</code> or <code>tools/demo</code> makes one.</p>
      </section>
    </main>
    <script>
    """# + ViewerPageScript.javascript + #"""
    </script>
    <script>
    """# + ViewerPageControls.javascript + #"""
    </script>
    </body>
    </html>

    """#
}
