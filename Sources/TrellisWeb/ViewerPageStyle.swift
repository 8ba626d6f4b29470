/// The page's style sheet: a status bar over a stage the size of the session's bounds.
enum ViewerPageStyle {
    static let css = #"""
    html, body { margin: 0; height: 100%; background: #2b2d31; color: #e8e8e8;
      font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    #status { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 0.4em 1.1em;
      padding: 6px 12px; background: #1e1f22; border-bottom: 1px solid #000; }
    #status b { font-variant-numeric: tabular-nums; font-weight: 600; }
    #status-state { margin-left: auto; color: #9ad29a; }
    #status-state.problem { color: #f0a36b; }
    main { display: flex; justify-content: center; padding: 16px; }
    /* The collection view's bounds: what it shows, clipped as a UIScrollView clips. Each view is
       flattened into this plane (transform-style: flat), as sibling layers of one superlayer are
       in Core Animation, and stacked by the server's drawing order. */
    #stage { position: relative; overflow: hidden; background: #ffffff; flex: none;
      outline: 1px solid #000; width: 375px; height: 812px; }
    .view { position: absolute; left: 0; top: 0; box-sizing: border-box;
      transform-origin: 50% 50% 0; border: 1px solid rgba(0, 0, 0, 0.35); border-radius: 3px;
      display: flex; align-items: center; justify-content: center; overflow: hidden;
      color: #000; font-size: 12px; }
    .view.selected { outline: 3px solid #1a73e8; outline-offset: -3px; }
    #stage.driving { cursor: grab; touch-action: none; user-select: none; }
    #stage.driving:active { cursor: grabbing; }
    #status-note { color: #f0a36b; }
    #toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.6em; padding: 6px 12px;
      background: #232428; border-bottom: 1px solid #000; }
    #toolbar[hidden] { display: none; }
    #toolbar .hint { color: #9a9a9a; margin-left: auto; }
    #sessions { display: none; min-width: 24em; }
    body.listing #sessions { display: block; }
    body.listing #stage { display: none; }
    #sessions table { border-collapse: collapse; width: 100%; }
    #sessions th, #sessions td { text-align: left; padding: 4px 12px 4px 0; border-bottom: 1px solid #3a3c42; }
    #sessions a { color: #8ab4f8; }
    .view > span { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%;
      padding: 0 2px; text-shadow: 0 0 2px rgba(255, 255, 255, 0.8); pointer-events: none; }

    """#
}
