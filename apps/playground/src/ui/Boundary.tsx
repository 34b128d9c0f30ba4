/**
 * What a panel shows when rendering it throws (a fault of the playground, never of the input: every input that
 * cannot be read is a finding): the error, and a way back, instead of an empty page. The rest of the page (the
 * tabs, the other panels) keeps working; the panel renders again when its input is changed from here.
 */
import { Component, type ComponentChildren } from "preact"

interface Props {
  readonly title: string
  /** puts the panel back to its first example */
  readonly onReset: () => void
  readonly children: ComponentChildren
}

export class Boundary extends Component<Props, { readonly error: string | undefined }> {
  override state = { error: undefined as string | undefined }

  static override getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }
  }

  override render() {
    if (this.state.error === undefined) return this.props.children
    return (
      <div class="panel crashed" data-testid="panel-crashed">
        <h2>{this.props.title}</h2>
        <p class="summary" role="alert">
          This panel could not show its input ({this.state.error}).
        </p>
        <p class="cut">The other panels work; the address still holds the input that failed.</p>
        <button
          type="button"
          onClick={() => {
            this.props.onReset()
            this.setState({ error: undefined })
          }}
        >
          Start this panel again from its first example
        </button>
      </div>
    )
  }
}
