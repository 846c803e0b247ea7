/**
 * The one path matcher of both route registries (routes.ts, dashboard-routes.ts): a resource path against
 * API Gateway's path syntax, one segment per `{param}`, URL-decoded. No imports, so every bundle can hold it.
 */

export interface PathMatch<R> {
  route: R;
  pathParameters: Record<string, string>;
}

/** A matcher over `routes`, compiled once; a parameter that is not valid percent-encoding makes its route not match. */
export function pathMatcher<R extends { path: string }>(
  routes: readonly R[],
): (resourcePath: string) => PathMatch<R> | undefined {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, names, regex: new RegExp(`^${pattern}$`) };
  });
  return (resourcePath) => {
    for (const { route, names, regex } of compiled) {
      const m = regex.exec(resourcePath);
      if (!m) continue;
      try {
        const pathParameters: Record<string, string> = {};
        for (const [i, name] of names.entries()) pathParameters[name] = decodeURIComponent(m[i + 1] ?? '');
        return { route, pathParameters };
      } catch {
        // Not valid percent-encoding: this route does not match.
      }
    }
    return undefined;
  };
}
