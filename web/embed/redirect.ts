// embed.js, the one script of embed.html: embed.html?panels=...&url=...#... is index.html in embed
// mode with the same parameters and fragment. A file rather than an inline script, which the
// page's Content-Security-Policy refuses; a <meta http-equiv="refresh"> could not carry the query.
location.replace('./?embed=1' + (location.search ? '&' + location.search.slice(1) : '') + location.hash);
