import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The theme's colours as the browser paints them: OKLCH to sRGB, a tint composited over the card, and the
// contrast ratio of WCAG 2.
const css = readFileSync("app/globals.css", "utf8");
const block = (selector: string) => {
  const start = css.indexOf(`\n${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block`);
  return css.slice(start, css.indexOf("}", start));
};
const colour = (scope: string, name: string) => {
  const match = block(scope).match(new RegExp(`--${name}: oklch\\(([\\d.]+) ([\\d.]+) ([\\d.]+)\\)`));
  if (!match) throw new Error(`no --${name} in ${scope}`);
  return match.slice(1).map(Number) as [number, number, number];
};

/** Gamma-encoded sRGB channels (0–1) of an OKLCH colour, clamped to the gamut. */
function srgb([lightness, chroma, hue]: [number, number, number]): number[] {
  const a = chroma * Math.cos((hue * Math.PI) / 180);
  const b = chroma * Math.sin((hue * Math.PI) / 180);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return linear.map((c) => {
    const v = Math.min(1, Math.max(0, c));
    return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
  });
}

const luminance = (rgb: number[]) => {
  const [r = 0, g = 0, b = 0] = rgb.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (x: number[], y: number[]) => {
  const [high, low] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (high + 0.05) / (low + 0.05);
};
const over = (tint: number[], alpha: number, base: number[]) =>
  tint.map((c, i) => alpha * c + (1 - alpha) * (base[i] ?? 0));

describe("the theme's error colour", () => {
  for (const scope of [":root", ".dark"])
    it(`reads at 4.5:1 as text on its own tint (badges, chips, alerts) over every surface, in ${scope}`, () => {
      const destructive = srgb(colour(scope, "destructive"));
      for (const surface of ["card", "background", "muted"]) {
        const base = srgb(colour(scope, surface));
        expect(contrast(destructive, over(destructive, 0.1, base)), surface).toBeGreaterThanOrEqual(4.5);
        expect(contrast(destructive, base), surface).toBeGreaterThanOrEqual(4.5);
      }
    });
});
