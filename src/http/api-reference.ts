/**
 * The browsable API reference at {prefix}/reference: Swagger UI served from the installed swagger-ui-dist
 * package, so the page works offline and makes no request to another origin (the OpenAPI plugin's own
 * page loads Scalar from a CDN). The package is resolved at boot: a missing package fails the boot, not
 * a request.
 */
import { Elysia } from "elysia";

const PACKAGE_JSON = Bun.resolveSync("swagger-ui-dist/package.json", import.meta.dir);
const PACKAGE_DIR = PACKAGE_JSON.slice(0, -"package.json".length);
const { version: VERSION } = (await Bun.file(PACKAGE_JSON).json()) as { version: string };

/** The package's files the page loads, with their media types. */
const ASSETS = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
} as const;

// Asset URLs carry the package version, so a year-long immutable cache still picks up an upgrade.
const ASSET_CACHE = "public, max-age=31536000, immutable";
// Same-origin only, enforced by the browser too. Swagger UI sets inline styles; data: serves its icons.
const PAGE_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'";

const initScript = (specUrl: string) =>
  // validatorUrl: null, or Swagger UI shows a badge image fetched from validator.swagger.io.
  `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null });\n`;

const page = (base: string, title: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${base}/swagger-ui.css?v=${VERSION}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/swagger-ui-bundle.js?v=${VERSION}"></script>
  <script src="${base}/init.js?v=${VERSION}"></script>
</body>
</html>
`;

export function apiReference(options: { path: string; specPath: string; title: string }) {
  const hidden = { detail: { hide: true } };
  const html = page(options.path, options.title);
  const init = initScript(options.specPath);
  const app = new Elysia({ name: "api-reference" })
    .get(
      options.path,
      () =>
        new Response(html, {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_POLICY, "cache-control": "no-cache" },
        }),
      hidden,
    )
    .get(
      `${options.path}/init.js`,
      () => new Response(init, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": ASSET_CACHE } }),
      hidden,
    );
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(
      `${options.path}/${name}`,
      () => new Response(Bun.file(PACKAGE_DIR + name), { headers: { "content-type": type, "cache-control": ASSET_CACHE } }),
      hidden,
    );
  }
  return app;
}
