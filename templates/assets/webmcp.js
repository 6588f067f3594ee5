// Registers the portal's read-only browser tools with WebMCP where the browser offers it
// (document.modelContext; older builds: navigator.modelContext). Elsewhere it does nothing.
// The tools are not listed here: the build writes them beside this script (webmcp-tools.json),
// from the same definitions as the MCP server card. Each tool is a GET on an API endpoint whose
// query values may name the tool's arguments as {name}.
(function () {
  "use strict";
  var context = (typeof document !== "undefined" && document.modelContext) ||
    (typeof navigator !== "undefined" && navigator.modelContext);
  if (!context || typeof context.registerTool !== "function") return;
  var script = document.currentScript;
  var base = script ? script.src : location.href;

  function fill(template, args) {
    return template.replace(/\{(\w+)\}/g, function (_, name) { return args && args[name] != null ? String(args[name]) : ""; });
  }
  function execute(tool, args) {
    var url = new URL(tool.request.path, base);
    Object.keys(tool.request.query).forEach(function (name) {
      url.searchParams.set(name, fill(tool.request.query[name], args).trim());
    });
    return fetch(url, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (value) { return { content: [{ type: "text", text: JSON.stringify(value) }] }; });
  }
  fetch(new URL("webmcp-tools.json", base))
    .then(function (r) { return r.json(); })
    .then(function (tools) {
      tools.forEach(function (tool) {
        try {
          context.registerTool({
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            annotations: { readOnlyHint: true },
            execute: function (args) { return execute(tool, args); }
          });
        } catch (e) { /* a tool the browser refuses is simply absent */ }
      });
    })
    .catch(function () { /* offline copy or no network: no tools */ });
})();
