/**
 * Hostile input against a real sandbox over a socket (issue 15): bodies nested deep or declared huge, bad encodings,
 * prototype-pollution keys, paths the router and a normaliser would read differently, over-long ids, header floods
 * and smuggling, bad media types, numbers a double cannot carry, request_ids with control characters. Each case gets
 * the exact status a careful API gives (401 for credentials that are not a tenant's, in each family's shape), a short body without a stack trace or an internal path, and the sandbox
 * answers a normal request afterwards. Slow clients and connection limits are in HostileClients.test.ts.
 */
import { gzipSync } from "node:zlib"
import { expect, layer } from "@effect/vitest"
import { Sandbox } from "@payrules/sandbox"
import { Context, Effect, Layer } from "effect"
import { type Answer, type Env, head, leaks, limits, sandboxEnv, send, withBody } from "./hostile.js"

class Suite extends Context.Service<Suite, Env>()("Hostile/Suite") {}

const suite = Layer.effect(Suite, sandboxEnv).pipe(Layer.provide(Sandbox.layer({ seed: 3, plans: 15, limits })))

type Part = string | Buffer

interface Case {
  readonly group: string
  readonly name: string
  readonly request: (env: Env) => ReadonlyArray<Part>
  readonly status: number
  /** what the answer's body must say (its message names the rule or the field) */
  readonly says?: RegExp
  /** the answer closes the connection (a body left unread is never read as a request) */
  readonly closes?: true
}

const MAX_BODY = Sandbox.defaultLimits.maxBodyBytes

// ---------------------------------------------------------------------------------------------------------------------
// request builders
// ---------------------------------------------------------------------------------------------------------------------

const json = (env: Env, line: string, body: string | Buffer, headers: ReadonlyArray<readonly [string, string]> = []) =>
  withBody(
    line,
    [["Host", "sandbox"], ["Authorization", env.auth], ["Content-Type", "application/json"], ...headers],
    body
  )

const get = (env: Env, target: string, headers: ReadonlyArray<readonly [string, string]> = []) => [
  head(`GET ${target} HTTP/1.1`, [["Host", "sandbox"], ["Authorization", env.auth], ...headers])
]

const accountsOf = (env: Env) => {
  const gbp = env.seed.accounts.find((a) => a.currency === "GBP")!
  const eur = env.seed.accounts.find((a) => a.currency === "EUR" && a.institution === gbp.institution)!
  return { gbp, eur }
}

/** an exchange body written as text, so that numbers and strings go out exactly as the case writes them */
const exchangeText = (
  env: Env,
  parts: { readonly amount?: string; readonly requestId?: string; readonly extra?: string; readonly fromExtra?: string }
) => {
  const { eur, gbp } = accountsOf(env)
  return (
    `{"from":{"account_id":"${gbp.id}","currency":"GBP","amount":${parts.amount ?? "1"}${parts.fromExtra ?? ""}},` +
    `"to":{"account_id":"${eur.id}","currency":"EUR"},"request_id":${parts.requestId ?? `"${crypto.randomUUID().slice(0, 30)}"`}${parts.extra ?? ""}}`
  )
}

const exchange = (env: Env, body: string | Buffer, headers: ReadonlyArray<readonly [string, string]> = []) =>
  json(env, "POST /business/exchange HTTP/1.1", body, headers)

const bytes = (...parts: ReadonlyArray<string | ReadonlyArray<number>>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))))

const nested = (depth: number, open = "[", close = "]") => `${open.repeat(depth)}${close.repeat(depth)}`
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`

// ---------------------------------------------------------------------------------------------------------------------
// the cases
// ---------------------------------------------------------------------------------------------------------------------

const depth: ReadonlyArray<Case> = [
  {
    group: "depth",
    name: "arrays nested 100,000 deep on /business/exchange",
    request: (env) => exchange(env, nested(100_000)),
    status: 400,
    says: /more than 64 deep/
  },
  {
    group: "depth",
    name: "objects nested 100,000 deep on /business/exchange",
    request: (env) => exchange(env, nestedObjects(100_000)),
    status: 400,
    says: /more than 64 deep/
  },
  {
    group: "depth",
    name: "arrays nested 100,000 deep on /business/pay/fields",
    request: (env) => json(env, "POST /business/pay/fields HTTP/1.1", nested(100_000)),
    status: 400,
    says: /more than 64 deep/
  },
  {
    group: "depth",
    name: "arrays nested 100,000 deep on PUT /__sandbox/faults",
    request: (env) => json(env, "PUT /__sandbox/faults HTTP/1.1", nested(100_000)),
    status: 400,
    says: /more than 64 deep/
  },
  {
    group: "depth",
    name: "objects nested 100,000 deep on POST /__sandbox/clock",
    request: (env) => json(env, "POST /__sandbox/clock HTTP/1.1", nestedObjects(100_000)),
    status: 400,
    says: /more than 64 deep/
  },
  {
    group: "depth",
    name: "65 levels, one past the limit",
    request: (env) => exchange(env, nested(65)),
    status: 400,
    says: /more than 64 deep/
  },
  {
    group: "depth",
    name: "64 levels pass the gate and meet the Schema",
    request: (env) => exchange(env, nested(64)),
    status: 400,
    says: /^(?!.*deep)/
  },
  {
    group: "depth",
    name: "brackets inside a string are not nesting",
    request: (env) => exchange(env, exchangeText(env, { requestId: `"${"[".repeat(5000)}"` })),
    status: 400,
    says: /request_id must have 1 to 40 characters/
  },
  {
    group: "depth",
    name: "an unclosed nest 100,000 deep",
    request: (env) => exchange(env, "[".repeat(60_000)),
    status: 400,
    says: /more than 64 deep/
  }
]

const width: ReadonlyArray<Case> = [
  {
    group: "width",
    name: "20,000 unknown keys beside a valid exchange",
    request: (env) =>
      exchange(env, exchangeText(env, { extra: Array.from({ length: 20_000 }, (_, i) => `,"k${i}":${i}`).join("") })),
    status: 400
  },
  {
    group: "width",
    name: "20,000 wrong fault rules",
    request: (env) =>
      json(
        env,
        "PUT /__sandbox/faults HTTP/1.1",
        `[${Array.from({ length: 20_000 }, () => '{"kind":"x"}').join(",")}]`
      ),
    status: 400
  },
  {
    group: "width",
    name: "100,000 numbers as an exchange",
    request: (env) => exchange(env, `[${Array.from({ length: 100_000 }, (_, i) => i).join(",")}]`),
    status: 400
  }
]

const size: ReadonlyArray<Case> = [
  {
    group: "size",
    name: "100 MB declared, nothing sent: 413 at once",
    request: (env) => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Content-Type", "application/json"],
        ["Content-Length", "100000000"]
      ])
    ],
    status: 413,
    says: /larger than 1048576 bytes/,
    closes: true
  },
  {
    group: "size",
    name: "100 MB declared on a path with a .. segment: 400, and the body is not read",
    request: (env) => [
      head("POST /business/../exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Content-Type", "application/json"],
        ["Content-Length", "100000000"],
        ["Connection", "keep-alive"]
      ])
    ],
    status: 400,
    closes: true
  },
  {
    group: "size",
    name: "100 MB declared with an Accept that excludes JSON: 406, and the body is not read",
    request: (env) => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Accept", "text/html"],
        ["Content-Type", "application/json"],
        ["Content-Length", "100000000"],
        ["Connection", "keep-alive"]
      ])
    ],
    status: 406,
    closes: true
  },
  {
    group: "size",
    name: "one byte over the limit",
    request: (env) => exchange(env, `"${"x".repeat(MAX_BODY - 1)}"`),
    status: 413
  },
  {
    group: "size",
    name: "chunked, past the limit, never ending",
    request: (env) => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Content-Type", "application/json"],
        ["Transfer-Encoding", "chunked"]
      ]),
      ...Array.from({ length: 70 }, () => `4000\r\n${"a".repeat(0x4000)}\r\n`)
    ],
    status: 413
  },
  {
    group: "size",
    name: "a 9 MB declared text body",
    request: (env) => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Content-Type", "text/plain"],
        ["Content-Length", String(9 * 1024 * 1024)]
      ]),
      "x".repeat(1024)
    ],
    status: 413
  },
  {
    group: "size",
    name: "a large string within the limit is not echoed",
    request: (env) => exchange(env, exchangeText(env, { requestId: `"${"é".repeat(30_000)}"` })),
    status: 400,
    says: /request_id must have 1 to 40 characters; it has 30000 characters/
  },
  {
    group: "size",
    name: "a long unknown account id is not echoed",
    request: (env) =>
      exchange(
        env,
        exchangeText(env, { fromExtra: "" }).replace(/"account_id":"[^"]+"/, `"account_id":"${"A".repeat(50_000)}"`)
      ),
    status: 400
  },
  {
    group: "size",
    name: "Content-Length shorter than the body: the rest is a bad next request",
    request: (env) => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", env.auth],
        ["Content-Type", "application/json"],
        ["Content-Length", "5"]
      ]),
      '{"from": {}}'
    ],
    status: 400
  },
  {
    group: "size",
    name: "a negative Content-Length",
    request: () => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Content-Length", "-1"]
      ]),
      "{}"
    ],
    status: 400
  },
  {
    group: "size",
    name: "a Content-Length that is not a number",
    request: () => [
      head("POST /business/exchange HTTP/1.1", [
        ["Host", "sandbox"],
        ["Content-Length", "0x10"]
      ]),
      "{}"
    ],
    status: 400
  }
]

const encodings: ReadonlyArray<Case> = [
  {
    group: "encodings",
    name: "a byte 0xFF in a string",
    request: (env) => exchange(env, bytes('{"request_id":"a', [0xff], '"}')),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "invalid UTF-8 in the request_id of a valid body",
    request: (env) => exchange(env, bytes(exchangeText(env, { requestId: '"r-' }), [0xc3, 0x28], '"}')),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "an overlong encoding of / (C0 AF)",
    request: (env) => exchange(env, bytes('{"request_id":"', [0xc0, 0xaf], '"}')),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "an overlong NUL (C0 80)",
    request: (env) => exchange(env, bytes('{"request_id":"', [0xc0, 0x80], '"}')),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "a surrogate encoded in UTF-8 (ED A0 80)",
    request: (env) => exchange(env, bytes('{"request_id":"', [0xed, 0xa0, 0x80], '"}')),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "a code point past U+10FFFF (F4 90 80 80)",
    request: (env) => exchange(env, bytes('{"request_id":"', [0xf4, 0x90, 0x80, 0x80], '"}')),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "a multi-byte sequence cut at the end",
    request: (env) => exchange(env, bytes('{"request_id":"a"}', [0xe2, 0x82])),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "a UTF-8 byte order mark",
    request: (env) => exchange(env, bytes([0xef, 0xbb, 0xbf], exchangeText(env, {}))),
    status: 400,
    says: /byte order mark/
  },
  {
    group: "encodings",
    name: "UTF-16LE with its byte order mark",
    request: (env) =>
      exchange(env, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(exchangeText(env, {}), "utf16le")])),
    status: 400,
    says: /not valid UTF-8/
  },
  {
    group: "encodings",
    name: "UTF-16LE without a byte order mark",
    request: (env) => exchange(env, Buffer.from(exchangeText(env, {}), "utf16le")),
    status: 400,
    says: /not valid JSON/
  },
  {
    group: "encodings",
    name: "charset=utf-16 declared",
    request: (env) =>
      withBody(
        "POST /business/exchange HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", env.auth],
          ["Content-Type", "application/json; charset=utf-16"]
        ],
        exchangeText(env, {})
      ),
    status: 415,
    says: /UTF-8/
  },
  {
    group: "encodings",
    name: "a raw control character inside a string",
    request: (env) => exchange(env, exchangeText(env, { requestId: '"a\u0001b"' })),
    status: 400,
    says: /not valid JSON/
  }
]

const pollution: ReadonlyArray<Case> = [
  ...(["__proto__", "constructor", "prototype"] as const).flatMap(
    (key): ReadonlyArray<Case> => [
      {
        group: "pollution",
        name: `${key} at the top of an exchange`,
        request: (env) => exchange(env, exchangeText(env, { extra: `,"${key}":{"polluted":true}` })),
        status: 400,
        says: new RegExp(key)
      },
      {
        group: "pollution",
        name: `${key} inside from`,
        request: (env) => exchange(env, exchangeText(env, { fromExtra: `,"${key}":{"polluted":true}` })),
        status: 400,
        says: new RegExp(key)
      },
      {
        group: "pollution",
        name: `${key} three levels down, in a fault rule`,
        request: (env) =>
          json(
            env,
            "PUT /__sandbox/faults HTTP/1.1",
            `[{"operation":"exchange","kind":"fail-before","count":1,"x":{"y":{"${key}":{"polluted":true}}}}]`
          ),
        status: 400,
        says: new RegExp(key)
      }
    ]
  ),
  {
    group: "pollution",
    name: "__proto__ in the receiver of /pay/fields",
    request: (env) =>
      json(
        env,
        "POST /business/pay/fields HTTP/1.1",
        `{"account_id":"${env.seed.accounts[0]!.id}","receiver":{"counterparty_id":"${env.seed.counterparties[0]!.id}","__proto__":{"polluted":true}}}`
      ),
    status: 400,
    says: /__proto__/
  }
]

const paths: ReadonlyArray<Case> = [
  {
    group: "paths",
    name: "/business/../__sandbox/ledger",
    request: (env) => get(env, "/business/../__sandbox/ledger"),
    status: 400,
    says: /\. or \.\. segments/
  },
  {
    group: "paths",
    name: "a . segment",
    request: (env) => get(env, "/business/./exchange-reasons"),
    status: 400,
    says: /\. or \.\. segments/
  },
  {
    group: "paths",
    name: "%2e%2e as a segment",
    request: (env) => get(env, "/business/%2e%2e/__sandbox/ledger"),
    status: 400
  },
  {
    group: "paths",
    name: "a double slash",
    request: (env) => get(env, "/business//exchange-reasons"),
    status: 400,
    says: /empty segment/
  },
  {
    group: "paths",
    name: "an encoded slash",
    request: (env) => get(env, "/business%2Fexchange-reasons"),
    status: 400,
    says: /%2F/
  },
  {
    group: "paths",
    name: "an encoded backslash",
    request: (env) => get(env, "/business%5cexchange-reasons"),
    status: 400
  },
  {
    group: "paths",
    name: "a raw backslash",
    request: (env) => get(env, "/business\\exchange-reasons"),
    status: 400
  },
  {
    group: "paths",
    name: "an encoded NUL",
    request: (env) => get(env, "/business/exchange-reasons%00"),
    status: 400
  },
  {
    group: "paths",
    name: "an encoded CR LF",
    request: (env) => get(env, "/business/exchange-reasons%0d%0aX-Injected:%201"),
    status: 400
  },
  {
    group: "paths",
    name: "an encoded unreserved letter (the router would decode it)",
    request: (env) => get(env, "/busine%73s/exchange-reasons"),
    status: 400,
    says: /unreserved/
  },
  {
    group: "paths",
    name: "a % that starts no escape",
    request: (env) => get(env, "/business/exchange-reasons%zz"),
    status: 400
  },
  {
    group: "paths",
    name: "percent-encoded bytes that are not UTF-8",
    request: (env) => get(env, "/open-banking/international-payments/%C0%AF"),
    status: 400,
    says: /UTF-8/
  },
  {
    group: "paths",
    name: "an absolute-form target",
    request: (env) => get(env, "http://sandbox/business/exchange-reasons"),
    status: 400
  },
  {
    group: "paths",
    name: "a fragment in the target",
    request: (env) => get(env, "/business/exchange-reasons#x"),
    status: 400
  },
  {
    group: "paths",
    name: "upper case where the API is lower case",
    request: (env) => get(env, "/BUSINESS/exchange-reasons"),
    status: 404
  },
  {
    group: "paths",
    name: "a trailing slash",
    request: (env) => get(env, "/business/exchange-reasons/"),
    status: 404
  },
  {
    group: "paths",
    name: "an unknown path",
    request: (env) => get(env, "/business/nothing-here"),
    status: 404
  },
  {
    group: "paths",
    name: "GET on a POST-only path: 405",
    request: (env) => get(env, "/business/exchange"),
    status: 405
  },
  {
    group: "paths",
    name: "a query value that is not UTF-8",
    request: (env) => get(env, "/business/exchange-reasons?x=%ff"),
    status: 400,
    says: /not percent-encoded UTF-8/
  },
  {
    group: "paths",
    name: "a query name that is not UTF-8",
    request: (env) => get(env, "/business/exchange-reasons?%c0=1"),
    status: 400
  }
]

const paymentPath = "/open-banking/international-payments/"
const obHeaders = [["x-fapi-financial-id", "001580000103UAvAAM"]] as const

const ids: ReadonlyArray<Case> = [
  {
    group: "ids",
    name: "a payment id of 101 characters: the resource's 400, not 405",
    request: (env) => get(env, `${paymentPath}${"a".repeat(101)}`, obHeaders),
    status: 400,
    says: /UK\.OBIE/
  },
  {
    group: "ids",
    name: "a payment id of 5,000 characters",
    request: (env) => get(env, `${paymentPath}${"b".repeat(5000)}`, obHeaders),
    status: 400
  },
  {
    group: "ids",
    name: "a payment id with encoded non-ASCII",
    request: (env) => get(env, `${paymentPath}ip_%C3%A9t%C3%A9`, obHeaders),
    status: 400
  },
  {
    group: "ids",
    name: "a path longer than the header limit: 431",
    request: (env) => get(env, `${paymentPath}${"c".repeat(9000)}`, obHeaders),
    status: 431
  },
  {
    group: "ids",
    name: "a request_id query of 41 characters",
    request: (env) => get(env, `/business/transactions?request_id=${"r".repeat(41)}`),
    status: 400,
    says: /request_id/
  },
  {
    group: "ids",
    name: "a request_id query of 5,000 characters",
    request: (env) => get(env, `/business/transactions?request_id=${"r".repeat(5000)}`),
    status: 400,
    says: /request_id/
  },
  {
    group: "ids",
    name: "an empty request_id query",
    request: (env) => get(env, "/business/transactions?request_id="),
    status: 400,
    says: /request_id/
  }
]

const headers: ReadonlyArray<Case> = [
  {
    group: "headers",
    name: "one header of 20 KB",
    request: (env) => get(env, "/business/exchange-reasons", [["X-Big", "a".repeat(20_000)]]),
    status: 431
  },
  {
    group: "headers",
    name: "2,000 small headers",
    request: (env) =>
      get(
        env,
        "/business/exchange-reasons",
        Array.from({ length: 2000 }, (_, i) => [`X-H${i}`, "v"] as const)
      ),
    status: 431
  },
  {
    group: "headers",
    name: "two different Content-Lengths",
    request: () => [
      "POST /business/exchange HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}"
    ],
    status: 400
  },
  {
    group: "headers",
    name: "Transfer-Encoding and Content-Length together (smuggling)",
    request: () => [
      "POST /business/exchange HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /__sandbox/ledger HTTP/1.1\r\nHost: sandbox\r\n\r\n"
    ],
    status: 400
  },
  {
    group: "headers",
    name: "an obfuscated Transfer-Encoding",
    request: () => [
      "POST /business/exchange HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\nContent-Length: 2\r\n\r\n{}"
    ],
    status: 400
  },
  {
    group: "headers",
    name: "a header folded onto the next line",
    request: () => ["GET /business/exchange-reasons HTTP/1.1\r\nHost: sandbox\r\nX-A: 1\r\n  folded\r\n\r\n"],
    status: 400
  },
  {
    group: "headers",
    name: "a header name with a space",
    request: () => ["GET /business/exchange-reasons HTTP/1.1\r\nHost: sandbox\r\nBad Name: 1\r\n\r\n"],
    status: 400
  },
  {
    group: "headers",
    name: "a NUL in a header value",
    request: () => ["GET /business/exchange-reasons HTTP/1.1\r\nHost: sandbox\r\nX-A: a\u0000b\r\n\r\n"],
    status: 400
  },
  {
    group: "headers",
    name: "no Host on HTTP/1.1",
    request: () => ["GET /business/exchange-reasons HTTP/1.1\r\nConnection: close\r\n\r\n"],
    status: 400
  },
  {
    group: "headers",
    name: "Content-Type text/plain on a body",
    request: (env) =>
      withBody(
        "POST /business/exchange HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", env.auth],
          ["Content-Type", "text/plain"]
        ],
        exchangeText(env, {})
      ),
    status: 415,
    says: /application\/json/
  },
  {
    group: "headers",
    name: "no Content-Type on a body",
    request: (env) =>
      withBody(
        "POST /business/exchange HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", env.auth]
        ],
        exchangeText(env, {})
      ),
    status: 415
  },
  {
    group: "headers",
    name: "a form body",
    request: (env) =>
      withBody(
        "POST /business/pay/fields HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", env.auth],
          ["Content-Type", "application/x-www-form-urlencoded"]
        ],
        "account_id=a&receiver=b"
      ),
    status: 415
  },
  {
    group: "headers",
    name: "a multipart body",
    request: () =>
      withBody(
        "PUT /__sandbox/faults HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Content-Type", "multipart/form-data; boundary=x"]
        ],
        "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n"
      ),
    status: 415
  },
  {
    group: "headers",
    name: "application/jsonx",
    request: (env) =>
      withBody(
        "POST /business/exchange HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", env.auth],
          ["Content-Type", "application/jsonx"]
        ],
        exchangeText(env, {})
      ),
    status: 415
  },
  {
    group: "headers",
    name: "Accept: text/html",
    request: (env) => get(env, "/business/exchange-reasons", [["Accept", "text/html"]]),
    status: 406
  },
  {
    group: "headers",
    name: "Accept: application/json;q=0",
    request: (env) => get(env, "/business/exchange-reasons", [["Accept", "application/json;q=0"]]),
    status: 406
  },
  {
    group: "headers",
    name: "Accept of 7 KB that excludes JSON is not echoed",
    request: (env) => get(env, "/business/exchange-reasons", [["Accept", `text/${"h".repeat(7000)}`]]),
    status: 406
  }
]

const numbers: ReadonlyArray<Case> = [
  ...(
    [
      ["1.0000000000000001", /from\.amount: the number 1\.0000000000000001 cannot be read exactly/],
      ["1e400", /from\.amount/],
      ["-1e400", /from\.amount/],
      ["1e-400", /from\.amount/],
      ["12345678901234567890", /from\.amount/],
      ["0.30000000000000004", /from\.amount: 0\.30000000000000004 has 17 significant digits/],
      ["-0", /greater than 0/],
      ["0", /greater than 0/],
      ["0x10", /not valid JSON/],
      ["NaN", /not valid JSON/],
      ["Infinity", /not valid JSON/],
      ["1.", /not valid JSON/],
      [".5", /not valid JSON/],
      ["+1", /not valid JSON/],
      ["01", /not valid JSON/],
      ['"10.5"', /JSON number/],
      ["1.005", /decimals/]
    ] as const
  ).map(
    ([amount, says]): Case => ({
      group: "numbers",
      name: `amount ${amount}`,
      request: (env) => exchange(env, exchangeText(env, { amount })),
      status: 400,
      says
    })
  ),
  {
    group: "numbers",
    name: "an inexact number anywhere in a control body",
    request: (env) =>
      json(
        env,
        "PUT /__sandbox/faults HTTP/1.1",
        '[{"operation":"exchange","kind":"fail-before","probability":0.10000000000000000001}]'
      ),
    status: 400,
    says: /0\.probability/
  },
  ...(["1.50", "15e-1", "0.015E2"] as const).map(
    (amount): Case => ({
      group: "numbers",
      name: `amount ${amount}, exact: accepted`,
      request: (env) => exchange(env, exchangeText(env, { amount })),
      status: 200
    })
  )
]

const requestIds: ReadonlyArray<Case> = [
  ...(
    [
      ["NUL", '"r\\u0000x"'],
      ["CR LF", '"r\\r\\nx"'],
      ["a tab", '"r\\tx"'],
      ["DEL", '"r\\u007fx"'],
      ["a C1 control", '"r\\u0085x"'],
      ["a lone surrogate", '"r\\ud800x"']
    ] as const
  ).map(
    ([what, requestId]): Case => ({
      group: "request_id",
      name: `request_id with ${what}`,
      request: (env) => exchange(env, exchangeText(env, { requestId })),
      status: 400,
      says: /request_id must be text without control characters/
    })
  ),
  ...(
    [
      ["NUL", '"r\\u0000x"'],
      ["a lone surrogate", '"r\\udc00x"']
    ] as const
  ).map(
    ([what, reference]): Case => ({
      group: "request_id",
      name: `reference with ${what}`,
      request: (env) => exchange(env, exchangeText(env, { extra: `,"reference":${reference}` })),
      status: 400,
      says: /reference must be text without control characters/
    })
  ),
  {
    group: "request_id",
    name: "request_id of 41 characters",
    request: (env) => exchange(env, exchangeText(env, { requestId: `"${"r".repeat(41)}"` })),
    status: 400,
    says: /request_id must have 1 to 40 characters/
  },
  {
    group: "request_id",
    name: "request_id of 40 emoji (40 characters, 160 bytes): accepted",
    request: (env) => exchange(env, exchangeText(env, { requestId: `"${"🦊".repeat(39)}${Date.now() % 10}"` })),
    status: 200
  },
  ...(
    [
      ["NUL", "%00"],
      ["CR LF", "r%0D%0Ax"],
      ["invalid UTF-8", "r%FFx"],
      ["an overlong sequence", "r%C0%AFx"]
    ] as const
  ).map(
    ([what, value]): Case => ({
      group: "request_id",
      name: `request_id query with ${what}`,
      request: (env) => get(env, `/business/transactions?request_id=${value}`),
      status: 400,
      says: /request_id/
    })
  )
]

/** a request with these headers instead of the tenant's credentials */
const as = (line: string, headers: ReadonlyArray<readonly [string, string]>) => [
  head(line, [["Host", "sandbox"], ...headers])
]

const credentials: ReadonlyArray<Case> = [
  ...(
    [
      ["no Authorization", []],
      ["an empty Authorization", [["Authorization", ""]]],
      ["the Basic scheme", [["Authorization", "Basic dXNlcjpwYXNz"]]],
      ["the Digest scheme", [["Authorization", 'Digest username="alice", realm="sandbox"']]],
      ["Bearer without a token", [["Authorization", "Bearer "]]],
      ["Bearer with two tokens", [["Authorization", "Bearer abc def"]]],
      ["Bearer with a token no tenant holds", [["Authorization", "Bearer sbx_mallory_0123456789abcdef"]]],
      ["Bearer with a 4,000-character token", [["Authorization", `Bearer ${"t".repeat(4000)}`]]],
      ["Bearer with a token of quotes and commas", [["Authorization", 'Bearer "a",b']]],
      ["a token in another header", [["X-Api-Key", "sbx_mallory_0123456789abcdef"]]]
    ] as const
  ).map(
    ([what, headers]): Case => ({
      group: "credentials",
      name: `${what} on GET /business/exchange-reasons`,
      request: () => as("GET /business/exchange-reasons HTTP/1.1", headers),
      status: 401,
      says: /"code":/
    })
  ),
  {
    group: "credentials",
    name: "no Authorization on the merchant plan list: the merchant shape",
    request: () => as("GET /merchant/api/subscription-plans HTTP/1.1", []),
    status: 401,
    says: /"timestamp":/
  },
  {
    group: "credentials",
    name: "no Authorization on an Open Banking payment: UK.OBIE.Header.Missing",
    request: () => as(`GET ${paymentPath}pay-1 HTTP/1.1`, obHeaders),
    status: 401,
    says: /UK\.OBIE\.Header\.Missing/
  },
  {
    group: "credentials",
    name: "an unknown token on POST /business/exchange with a body: refused unread, the connection closed",
    request: (env) =>
      withBody(
        "POST /business/exchange HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", "Bearer sbx_mallory_0123456789abcdef"],
          ["Content-Type", "application/json"]
        ],
        exchangeText(env, {})
      ),
    status: 401,
    closes: true
  },
  {
    group: "credentials",
    name: "an unknown token on POST /business/pay/fields",
    request: () =>
      withBody(
        "POST /business/pay/fields HTTP/1.1",
        [
          ["Host", "sandbox"],
          ["Authorization", "Bearer sbx_mallory_0123456789abcdef"],
          ["Content-Type", "application/json"]
        ],
        "{}"
      ),
    status: 401,
    closes: true
  }
]

// a header HTTP allows once, given twice: Node keeps the first (or joins them), a proxy in front may keep another
const repeats: ReadonlyArray<Case> = [
  {
    group: "repeats",
    name: "two Authorization headers, a tenant's then another",
    request: (env) =>
      get(env, "/business/exchange-reasons", [["Authorization", "Bearer sbx_mallory_0123456789abcdef"]]),
    status: 400,
    says: /the authorization header is given 2 times/
  },
  {
    group: "repeats",
    name: "two Authorization headers, another then a tenant's",
    request: (env) => [
      head("GET /business/exchange-reasons HTTP/1.1", [
        ["Host", "sandbox"],
        ["Authorization", "Bearer sbx_mallory_0123456789abcdef"],
        ["Authorization", env.auth]
      ])
    ],
    status: 400,
    says: /authorization/
  },
  {
    group: "repeats",
    name: "two Content-Types on an exchange, JSON then text (the body is not read)",
    request: (env) =>
      json(env, "POST /business/exchange HTTP/1.1", exchangeText(env, {}), [["Content-Type", "text/plain"]]),
    status: 400,
    says: /the content-type header is given 2 times/,
    closes: true
  },
  {
    group: "repeats",
    name: "two Host headers",
    request: (env) => get(env, "/business/exchange-reasons", [["Host", "elsewhere"]]),
    status: 400,
    says: /the host header is given 2 times/
  },
  {
    group: "repeats",
    name: "x-fapi-financial-id twice, the same value (Node joins them)",
    request: (env) =>
      get(env, `/open-banking/international-payments/${env.seed.payments[0]!.id}`, [
        ["x-fapi-financial-id", "001580000103UAvAAM"],
        ["X-Fapi-Financial-Id", "001580000103UAvAAM"]
      ]),
    status: 400,
    says: /"ErrorCode":"UK\.OBIE\.Header\.Invalid".*"Path":"x-fapi-financial-id"/
  },
  {
    group: "repeats",
    name: "a plain JSON body said to be gzip",
    request: (env) =>
      json(env, "POST /business/exchange HTTP/1.1", exchangeText(env, {}), [["Content-Encoding", "gzip"]]),
    status: 415,
    says: /content coding gzip/,
    closes: true
  },
  {
    group: "repeats",
    name: "a gzipped JSON body",
    request: (env) =>
      json(env, "POST /business/exchange HTTP/1.1", gzipSync(exchangeText(env, {})), [["Content-Encoding", "gzip"]]),
    status: 415,
    says: /content coding gzip/,
    closes: true
  }
]

const cases: ReadonlyArray<Case> = [
  ...depth,
  ...width,
  ...size,
  ...encodings,
  ...pollution,
  ...paths,
  ...ids,
  ...headers,
  ...repeats,
  ...numbers,
  ...requestIds,
  ...credentials
]

/** the normal request after each case */
const normal = (env: Env) => send(env.port, get(env, "/business/exchange-reasons"))

const check = (c: Case, answer: Answer) => {
  const what = `${c.group}: ${c.name} -> ${answer.status} ${answer.body.slice(0, 300)}`
  expect(answer.status, what).toBe(c.status)
  expect(leaks(answer.body), what).toBe(false)
  expect(answer.body.length, what).toBeLessThan(1024)
  if (c.says !== undefined) expect(answer.body, what).toMatch(c.says)
  if (c.closes) expect(answer.headers.connection, what).toBe("close")
}

layer(suite, { excludeTestServices: true })("hostile input over a socket", (it) => {
  it("has at least 80 distinct cases", () => {
    expect(new Set(cases.map((c) => `${c.group}: ${c.name}`)).size).toBe(cases.length)
    expect(cases.length).toBeGreaterThanOrEqual(80)
  })

  it.effect.each(cases.map((c) => [`${c.group}: ${c.name}`, c] as const))("%s", ([, c]) =>
    Effect.gen(function* () {
      const env = yield* Suite
      const answer = yield* send(env.port, c.request(env))
      check(c, answer)
      const after = yield* normal(env)
      expect(after.status, `after ${c.name}`).toBe(200)
    })
  )

  it.effect("nothing was written onto Object.prototype", () =>
    Effect.sync(() => {
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect(Object.prototype).not.toHaveProperty("polluted")
    })
  )
})
