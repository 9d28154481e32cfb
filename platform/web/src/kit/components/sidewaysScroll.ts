import { type RefObject, useLayoutEffect, useState } from 'react';

/** What a frame that may scroll sideways holds beyond its edges. */
export interface Sideways {
  /** The content is wider than the frame. */
  overflows: boolean;
  /** Columns are hidden past the frame's start (scrolled away) or past its end (still to come). */
  moreBefore: boolean;
  moreAfter: boolean;
}

export const NOT_SIDEWAYS: Sideways = { overflows: false, moreBefore: false, moreAfter: false };

/**
 * A frame's sideways state from its measures. A pixel of slack absorbs sub-pixel widths; scrollLeft is negative in a
 * right-to-left frame, so its size counts.
 */
export function sidewaysOf(box: { scrollLeft: number; scrollWidth: number; clientWidth: number }): Sideways {
  const hidden = box.scrollWidth - box.clientWidth;
  if (hidden <= 1) return NOT_SIDEWAYS;
  const scrolled = Math.abs(box.scrollLeft);
  return { overflows: true, moreBefore: scrolled > 1, moreAfter: scrolled < hidden - 1 };
}

const same = (a: Sideways, b: Sideways) => a.overflows === b.overflows && a.moreBefore === b.moreBefore && a.moreAfter === b.moreAfter;

/**
 * Follows a scrolling frame's sideways state: measured before the first paint, again when the frame or its content
 * changes size, and as it scrolls (a vertical scroll changes nothing, so the state, and the render, stay).
 */
export function useSideways(ref: RefObject<HTMLElement | null>): Sideways {
  const [state, setState] = useState<Sideways>(NOT_SIDEWAYS);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const next = sidewaysOf(el);
      setState((current) => (same(current, next) ? current : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, [ref]);
  return state;
}

/** The attributes that draw the edge hints (./sidewaysScroll.css's `edges`) on the frame's wrapper. */
export const edgeAttributes = (s: Sideways) => ({ 'data-more-before': s.moreBefore || undefined, 'data-more-after': s.moreAfter || undefined });
