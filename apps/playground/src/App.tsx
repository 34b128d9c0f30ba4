/**
 * The page: three panels behind tabs, each loaded on first need (the first load carries one panel's code; the others
 * follow while the page is idle), their state kept in the URL's fragment.
 */
import type { ComponentType } from "preact"
import { useEffect, useRef, useState } from "preact/hooks"
import * as Marks from "./marks.js"
import { fromFragment, initial, linkOf, MAX_FRAGMENT, type Panel, panels, type State } from "./state.js"
import { Boundary } from "./ui/Boundary.js"

export interface PanelProps<A> {
  readonly value: A
  readonly onChange: (next: A) => void
}

type Modules = {
  readonly plan: ComponentType<PanelProps<State["plan"]>>
  readonly fields: ComponentType<PanelProps<State["fields"]>>
  readonly identifiers: ComponentType<PanelProps<string>>
}

const loaders: { readonly [P in Panel]: () => Promise<Modules[P]> } = {
  plan: () => import("./panels/PlanPanel.js").then((m) => m.PlanPanel),
  fields: () => import("./panels/FieldsPanel.js").then((m) => m.FieldsPanel),
  identifiers: () =>
    import("./panels/IdentifiersPanel.js").then(async (m) => {
      // the Vocalink table too: once it is in, the panel checks UK accounts without asking the network again
      await m.tableLoaded
      return m.IdentifiersPanel
    })
}

const titles: Record<Panel, string> = {
  plan: "Plan schedule",
  fields: "Transfer fields",
  identifiers: "Identifiers and durations"
}

const idle = (f: () => void) =>
  "requestIdleCallback" in window ? window.requestIdleCallback(() => f(), { timeout: 2000 }) : setTimeout(f, 50)

export const App = () => {
  const [state, setState] = useState<State>(() => fromFragment(location.hash))
  const [modules, setModules] = useState<Partial<Modules>>({})
  const tabs = useRef<Partial<Record<Panel, HTMLButtonElement | null>>>({})

  const load = (panel: Panel): Promise<void> =>
    loaders[panel]().then((component) => {
      Marks.loaded(panel)
      setModules((m) => ({ ...m, [panel]: component }))
    })

  useEffect(() => {
    // the panel shown first, then the others while the page is idle: after that, nothing is fetched
    void load(state.panel).then(() =>
      idle(() => void Promise.all(panels.filter((p) => p !== state.panel).map(load)).then(Marks.ready))
    )
    const restore = () => setState(fromFragment(location.hash))
    window.addEventListener("hashchange", restore)
    return () => window.removeEventListener("hashchange", restore)
  }, [])

  // the address follows the state, unless the state is too large for a link (then it keeps the last that fitted)
  const [unlinked, setUnlinked] = useState<number | undefined>(undefined)
  useEffect(() => {
    const link = linkOf(state)
    if ("fragment" in link) history.replaceState(null, "", `#${link.fragment}`)
    setUnlinked("tooLong" in link ? link.tooLong : undefined)
  }, [state])

  const select = (panel: Panel, focus: boolean) => {
    setState((s) => ({ ...s, panel }))
    if (modules[panel] === undefined) void load(panel)
    if (focus) tabs.current[panel]?.focus()
  }

  /** a panel back to its first example (after it failed to render) */
  const reset = (panel: Panel) =>
    setState((s) =>
      panel === "plan"
        ? { ...s, plan: initial.plan }
        : panel === "fields"
          ? { ...s, fields: initial.fields }
          : { ...s, identifier: initial.identifier }
    )

  const onTabKey = (e: KeyboardEvent, i: number) => {
    const to =
      e.key === "ArrowRight"
        ? (i + 1) % panels.length
        : e.key === "ArrowLeft"
          ? (i + panels.length - 1) % panels.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? panels.length - 1
              : undefined
    if (to === undefined) return
    e.preventDefault()
    select(panels[to]!, true)
  }

  const Shown = modules[state.panel]
  return (
    <>
      <header>
        <h1>payrules playground</h1>
        <p class="lede">
          The payrules packages, running in this page: nothing you type leaves it (no server, no network request). The
          link in the address bar reproduces what you see.
        </p>
      </header>
      {unlinked === undefined ? null : (
        <p class="note warning" role="status" data-testid="unlinked">
          The link cannot carry what the page holds now: it would be {unlinked.toLocaleString("en-GB")} characters, and
          a link holds up to {MAX_FRAGMENT.toLocaleString("en-GB")}. The address keeps the last state that fitted; the
          page works as before.
        </p>
      )}
      <div role="tablist" aria-label="Panels" class="tabs">
        {panels.map((panel, i) => (
          <button
            type="button"
            role="tab"
            id={`tab-${panel}`}
            key={panel}
            ref={(el) => {
              tabs.current[panel] = el
            }}
            aria-selected={state.panel === panel}
            aria-controls={`panel-${panel}`}
            tabIndex={state.panel === panel ? 0 : -1}
            onClick={() => select(panel, false)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {titles[panel]}
          </button>
        ))}
      </div>
      <main>
        <div id={`panel-${state.panel}`} role="tabpanel" aria-labelledby={`tab-${state.panel}`}>
          {Shown === undefined ? (
            <p class="loading">Loading…</p>
          ) : (
            <Boundary key={state.panel} title={titles[state.panel]} onReset={() => reset(state.panel)}>
              {state.panel === "plan" ? (
                <PanelOf
                  component={modules.plan!}
                  value={state.plan}
                  onChange={(plan) => setState((s) => ({ ...s, plan }))}
                />
              ) : state.panel === "fields" ? (
                <PanelOf
                  component={modules.fields!}
                  value={state.fields}
                  onChange={(fields) => setState((s) => ({ ...s, fields }))}
                />
              ) : (
                <PanelOf
                  component={modules.identifiers!}
                  value={state.identifier}
                  onChange={(identifier) => setState((s) => ({ ...s, identifier }))}
                />
              )}
            </Boundary>
          )}
        </div>
      </main>
      <footer>
        <p>
          payrules: validation and simulation for payment API traffic. The same checks run in the <code>payrules</code>{" "}
          command line and in the packages <code>@payrules/subscriptions</code>, <code>@payrules/transfers</code>,{" "}
          <code>@payrules/accounts</code> and <code>@payrules/iso8601</code>.
        </p>
      </footer>
    </>
  )
}

const PanelOf = <A,>(props: { component: ComponentType<PanelProps<A>>; value: A; onChange: (next: A) => void }) => {
  const Component = props.component
  return <Component value={props.value} onChange={props.onChange} />
}
