/** The dashboard's static files, read once at boot (a missing file fails the boot, not a request). */
const DIR = `${import.meta.dir}/assets`;
const TYPES = { "dashboard.css": "text/css; charset=utf-8", "dashboard.js": "text/javascript; charset=utf-8" } as const;

const files = new Map<string, { body: string; type: string }>();
for (const [name, type] of Object.entries(TYPES)) files.set(name, { body: await Bun.file(`${DIR}/${name}`).text(), type });

/** An asset by file name, or null. Revalidated on each load (no-cache): a new release's file is picked up at once. */
export function asset(name: string): Response | null {
  const file = files.get(name);
  if (!file) return null;
  return new Response(file.body, { headers: { "content-type": file.type, "cache-control": "no-cache" } });
}
