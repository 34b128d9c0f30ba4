/**
 * The text of an SVG picture as boxes, from the attributes alone: `x`, `y`, `font-size`, `text-anchor` and
 * `textLength` (the width the renderer draws the text into). The font is monospaced: 0.6 font sizes per character.
 */
import { Resvg } from "@resvg/resvg-js"

export interface TextBox {
  readonly text: string
  readonly left: number
  readonly right: number
  readonly top: number
  readonly bottom: number
  /** the declared `textLength` */
  readonly length: number
  readonly fontSize: number
}

const attributes = (s: string): Record<string, string> =>
  Object.fromEntries([...s.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")

export const textBoxes = (svg: string): ReadonlyArray<TextBox> =>
  [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const a = attributes(m[1]!)
    const x = Number(a.x)
    const y = Number(a.y)
    const fontSize = Number(a["font-size"])
    const length = Number(a.textLength)
    const anchor = a["text-anchor"] ?? "start"
    const left = anchor === "middle" ? x - length / 2 : anchor === "end" ? x - length : x
    return {
      text: unescape(m[2]!),
      left,
      right: left + length,
      top: y - 0.8 * fontSize,
      bottom: y + 0.2 * fontSize,
      length,
      fontSize
    }
  })

/** The pairs of text boxes that share some area. */
export const overlapping = (boxes: ReadonlyArray<TextBox>): ReadonlyArray<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!
      const b = boxes[j]!
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push([a.text, b.text])
    }
  }
  return out
}

/** The size of the picture, from the root element. */
export const size = (svg: string): { readonly width: number; readonly height: number } => {
  const root = attributes(/<svg\b([^>]*)>/.exec(svg)![1]!)
  return { width: Number(root.width), height: Number(root.height) }
}

/** The picture drawn by resvg, with the machine's fonts (DejaVu Sans Mono where the named ones are missing). */
export const renderPng = (svg: string) => {
  const image = new Resvg(svg, {
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans Mono", monospaceFamily: "DejaVu Sans Mono" },
    fitTo: { mode: "original" }
  }).render()
  return { png: image.asPng(), width: image.width, height: image.height, pixels: image.pixels }
}
