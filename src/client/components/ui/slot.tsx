import { cloneElement, isValidElement, type ReactElement, type ReactNode, type Ref, type RefCallback } from 'react';

type Props = Record<string, unknown>;

/** Both refs get the node, and both are cleared with it (each kind: an object ref or a callback). */
function composedRef<T>(first: Ref<T> | undefined, second: Ref<T> | undefined): Ref<T> | undefined {
  if (!first || !second) return first ?? second;
  const set = (ref: Ref<T>, node: T | null) => {
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  };
  const both: RefCallback<T> = (node) => {
    set(first, node);
    set(second, node);
  };
  return both;
}

/**
 * Renders its one child element with its own props merged in: `<Button asChild><Link/></Button>` is a
 * link that looks like a button. As Radix's Slot merges them: the child's props win, but class names
 * join, styles merge, both event handlers run (the child's first) and both refs are set. Ours because
 * Button is in the shell every visitor downloads, and Radix's, with its Slottable and lazy-child
 * handling that Button never needs, cost the landing page a KB (issue 19 §3, decision 005).
 */
export function Slot({ children, ...slotProps }: Props & { children?: ReactNode }) {
  if (!isValidElement(children)) throw new Error('Slot (asChild) needs exactly one element as its child');
  const child = children as ReactElement<Props>;
  const merged: Props = { ...slotProps, ...child.props };
  for (const [name, slotValue] of Object.entries(slotProps)) {
    const childValue = child.props[name];
    if (slotValue === undefined || childValue === undefined) continue;
    if (/^on[A-Z]/.test(name) && typeof slotValue === 'function' && typeof childValue === 'function') {
      merged[name] = (...args: unknown[]) => {
        const result: unknown = childValue(...args);
        slotValue(...args);
        return result;
      };
    } else if (name === 'className') {
      merged[name] = `${String(slotValue)} ${String(childValue)}`;
    } else if (name === 'style') {
      merged[name] = { ...(slotValue as object), ...(childValue as object) };
    } else if (name === 'ref') {
      merged[name] = composedRef(slotValue as Ref<unknown>, childValue as Ref<unknown>);
    }
  }
  return cloneElement(child, merged);
}
