// Registers the portal's read-only browser tools with WebMCP where the browser offers it
// (document.modelContext; older builds: navigator.modelContext). Elsewhere it does nothing.
(function () {
  "use strict";
  var context = (typeof document !== "undefined" && document.modelContext) ||
    (typeof navigator !== "undefined" && navigator.modelContext);
  if (!context || typeof context.registerTool !== "function") return;

  function getJson(path) {
    return fetch(path, { headers: { Accept: "application/json" } }).then(function (r) { return r.json(); });
  }
  function search(query, collections) {
    var url = "/api/search?q=" + encodeURIComponent(query || "") + (collections ? "&collections=" + collections : "");
    return getJson(url);
  }
  function text(value) {
    return { content: [{ type: "text", text: JSON.stringify(value) }] };
  }
  var query = { type: "object", properties: { query: { type: "string", description: "Words to find." } }, required: ["query"] };
  var nothing = { type: "object", properties: {} };
  var tools = [
    { name: "search_site", description: "Search every published collection of the portal.", inputSchema: query,
      execute: function (args) { return search(args.query).then(text); } },
    { name: "search_services", description: "Find services (health, legal aid, water, shelter...) by words.", inputSchema: query,
      execute: function (args) { return search(args.query, "services").then(text); } },
    { name: "weather_summary", description: "Today's weather and forecast, or the seasonal summary.", inputSchema: nothing,
      execute: function () { return getJson("/api/weather").then(text); } },
    { name: "urgent_help_contacts", description: "Current high-priority alerts and whom to contact urgently.", inputSchema: nothing,
      execute: function () { return getJson("/api/alerts").then(text); } },
    { name: "language_support_routes", description: "Services and courses offering interpreting or language lessons.",
      inputSchema: { type: "object", properties: { language: { type: "string" } } },
      execute: function (args) { return search((args.language || "") + " language", "services,courses").then(text); } },
    { name: "newcomer_first_steps", description: "First steps for a newcomer: registration, rights and essential services.", inputSchema: nothing,
      execute: function () { return search("registration", "rights,services,docs").then(text); } }
  ];
  tools.forEach(function (tool) {
    tool.annotations = { readOnlyHint: true };
    try { context.registerTool(tool); } catch (e) { /* a tool the browser refuses is simply absent */ }
  });
})();
