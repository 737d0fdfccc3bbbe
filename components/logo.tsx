/** The app's icon, the same file the browser tab and home screens show. */
export function Logo({ size = 28 }: { size?: number }) {
  // biome-ignore lint/performance/noImgElement: a small static SVG from public/, no optimization to gain.
  return <img src="/icon.svg" alt="" width={size} height={size} className="shrink-0 rounded-md" />;
}
