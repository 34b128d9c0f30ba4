/** The `payrules` command that does what a panel shows, and the files it reads. */
export const CommandLine = (props: { readonly command: string; readonly files: string }) => (
  <section class="command" aria-labelledby="command-title">
    <h3 id="command-title">Open in the command line</h3>
    <p>
      {props.files} From a clone of payrules (<code>pnpm install</code> first):
    </p>
    <pre>
      <code data-testid="command">{props.command}</code>
    </pre>
  </section>
)
