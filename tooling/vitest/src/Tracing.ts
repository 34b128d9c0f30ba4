/**
 * A tracer for tests that keeps every span it makes, to read their names, kinds and attributes afterwards.
 *
 * @since 0.0.0
 */
import * as Tracer from "effect/Tracer"

/**
 * @since 0.0.0
 */
export interface Recording {
  /** the tracer: provide it with `Effect.withTracer(tracer)` or `Layer.succeed(Tracer.Tracer)(tracer)` */
  readonly tracer: Tracer.Tracer
  /** every span the tracer made, in the order they started (clear it with `spans.length = 0`) */
  readonly spans: Array<Tracer.NativeSpan>
}

/**
 * A tracer that records the spans it makes (effect's own `NativeSpan`s, which end and keep their attributes as
 * effect's default tracer does).
 *
 * @since 0.0.0
 */
export const recording = (): Recording => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { tracer, spans }
}
