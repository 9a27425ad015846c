// Method + path pattern matching. Patterns use `:name` segments; a param may match an empty
// segment (files//children names the root), and handlers decide what an empty value means.
import type { ApiRequest, Reply } from './http';
import type { RouteId } from './types';
import type { World } from './world';

export type Handler = (req: ApiRequest, w: World) => Reply;

export interface RouteDef {
  id: RouteId;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: string;
  handler: Handler;
  /** Default true: needs a bearer token. */
  auth?: boolean;
  /** Default true for POST and PATCH: the body is parsed as a JSON object. */
  jsonBody?: boolean;
  /** Upload routes: the body streams to a file on disk (ApiRequest.spooled), up to this many bytes (else 413). */
  spool?: number;
}

export interface Match {
  route: RouteDef;
  params: Record<string, string>;
  key: string;
}

interface Compiled {
  def: RouteDef;
  parts: string[];
  literals: number;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export class Router {
  private readonly routes: Compiled[] = [];

  add(defs: readonly RouteDef[]): this {
    for (const def of defs) {
      const parts = def.pattern.split('/');
      this.routes.push({ def, parts, literals: parts.filter((p) => !p.startsWith(':')).length });
    }
    // Literal segments win over params when two patterns could both match.
    this.routes.sort((a, b) => b.literals - a.literals);
    return this;
  }

  match(method: string, path: string): Match | undefined {
    const segments = path.split('/');
    for (const r of this.routes) {
      if (r.def.method !== method || r.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < r.parts.length && ok; i++) {
        const part = r.parts[i] ?? '';
        const seg = segments[i] ?? '';
        if (part.startsWith(':')) params[part.slice(1)] = decode(seg);
        else ok = part === seg;
      }
      if (ok) return { route: r.def, params, key: `${method} ${r.def.pattern}` };
    }
    return undefined;
  }
}
