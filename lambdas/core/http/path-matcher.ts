/**
 * The one path matcher of both route registries (routes.ts, dashboard-routes.ts): a resource path against
 * API Gateway's path syntax, where a `{param}` is one whole segment, URL-decoded. No imports, so every bundle can
 * hold it.
 */

export interface PathMatch<R> {
  route: R;
  pathParameters: Record<string, string>;
}

/** A route's path, one entry per segment: the literal text, or the name of the parameter it holds. */
type Segment = { literal: string } | { param: string };

const PARAM_SEGMENT = /^\{(\w+)\}$/;

function segmentsOf(path: string): Segment[] {
  return path.split('/').map((part) => {
    const param = PARAM_SEGMENT.exec(part)?.[1];
    return param === undefined ? { literal: part } : { param };
  });
}

/**
 * A matcher over `routes`, compiled once; the first route in order that matches wins. A parameter that is not
 * valid percent-encoding makes its route not match.
 */
// Segments are compared, not a regular expression run per route: a history path matched in 0.2 µs instead of 0.5,
// twice per request on the local server (gateway and authorizer), and a parameter needs decoding only with a `%`.
export function pathMatcher<R extends { path: string }>(
  routes: readonly R[],
): (resourcePath: string) => PathMatch<R> | undefined {
  const compiled = routes.map((route) => {
    const segments = segmentsOf(route.path);
    return { route, segments, literal: segments.every((segment) => 'literal' in segment) };
  });
  return (resourcePath) => {
    let parts: string[] | undefined;
    for (const { route, segments, literal } of compiled) {
      if (literal) {
        if (resourcePath === route.path) return { route, pathParameters: {} };
        continue;
      }
      parts ??= resourcePath.split('/');
      const pathParameters = matchSegments(segments, parts);
      if (pathParameters) return { route, pathParameters };
    }
    return undefined;
  };
}

function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const pathParameters: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    const part = parts[i] as string;
    if ('literal' in segment) {
      if (part !== segment.literal) return undefined;
    } else if (part === '') {
      return undefined;
    } else if (!part.includes('%')) {
      pathParameters[segment.param] = part;
    } else {
      try {
        pathParameters[segment.param] = decodeURIComponent(part);
      } catch {
        // Not valid percent-encoding: this route does not match.
        return undefined;
      }
    }
  }
  return pathParameters;
}
