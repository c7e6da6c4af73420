// The member's real network, three levels deep, laid out by d3-hierarchy's tidy tree. Other
// members are anonymous nodes (their level only): names are never shown to other members.
import type { NetworkStats } from '@crw/core';
import { hierarchy, tree } from 'd3-hierarchy';
import { useEffect, useRef, useState, type RefObject } from 'react';
import styles from './community.module.css';

interface Node {
  id: string;
  level: number;
  children: Node[];
}

const MAX_DRAWN = 300;
/** Drawn at its own size, never scaled to the screen: on a phone a wide network scrolls sideways
 * instead of shrinking to unreadable dots. Space per node side by side, per level down, margin. */
const NODE_GAP = 40;
const LEVEL_GAP = 72;
const MARGIN = 32;
const MIN_WIDTH = 280;
/** What each level is, in the words of the referral rewards. */
const LEVELS = ['You', 'Your friends', 'Their friends', 'Friends of theirs'];

function buildTree(
  rootId: string,
  items: NetworkStats['data']['hierarchy'],
): { root: Node; hidden: number } {
  const root: Node = { id: rootId, level: 0, children: [] };
  const byId = new Map<string, Node>([[rootId, root]]);
  const sorted = [...items].sort((a, b) => a.level - b.level).slice(0, MAX_DRAWN);
  for (const item of sorted) {
    const node: Node = { id: item.referred_id, level: item.level, children: [] };
    byId.set(item.referred_id, node);
    (byId.get(item.parent_id ?? rootId) ?? root).children.push(node);
  }
  return { root, hidden: items.length - sorted.length };
}

/** Whether the element is wider than its box (then it must take keyboard focus to be scrolled). */
function useOverflows(ref: RefObject<HTMLElement | null>) {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth);
    check();
    // Start with the member's own node in view.
    el.scrollLeft = (el.scrollWidth - el.clientWidth) / 2;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

export function NetworkGraph({ rootId, network }: { rootId: string; network: NetworkStats }) {
  const { root, hidden } = buildTree(rootId, network.data.hierarchy);
  const laidOut = tree<Node>().nodeSize([NODE_GAP, LEVEL_GAP])(hierarchy(root));
  const nodes = laidOut.descendants();
  const links = laidOut.links();
  const minX = Math.min(...nodes.map((n) => n.x));
  const maxX = Math.max(...nodes.map((n) => n.x));
  const width = Math.max(MIN_WIDTH, maxX - minX + 2 * MARGIN);
  const height = laidOut.height * LEVEL_GAP + 2 * MARGIN;
  const offsetX = (width - (maxX - minX)) / 2 - minX;
  const scroller = useRef<HTMLDivElement>(null);
  const overflows = useOverflows(scroller);
  const summary = `Your network: ${network.data.level_counts.level1} at level 1, ${network.data.level_counts.level2} at level 2, ${network.data.level_counts.level3} at level 3.`;
  const levelsShown = LEVELS.slice(0, laidOut.height + 1);
  return (
    <figure className={styles.graph}>
      <div
        ref={scroller}
        className={styles.graphScroll}
        tabIndex={overflows ? 0 : undefined}
        aria-label={overflows ? 'Network graph, scrolls sideways' : undefined}
        role={overflows ? 'region' : undefined}
      >
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={summary}
        >
          <g transform={`translate(${offsetX} ${MARGIN})`}>
            {links.map((link) => (
              <line
                key={`${link.source.data.id}-${link.target.data.id}`}
                className={styles.edge}
                x1={link.source.x}
                y1={link.source.y}
                x2={link.target.x}
                y2={link.target.y}
              />
            ))}
            {nodes.map((node) => (
              <g key={node.data.id} transform={`translate(${node.x} ${node.y})`}>
                <circle
                  className={styles[`node${node.data.level}`]}
                  r={node.data.level === 0 ? 22 : 15}
                />
                <text className={styles.nodeLabel} textAnchor="middle" dy="0.35em">
                  {node.data.level === 0 ? 'You' : `L${node.data.level}`}
                </text>
              </g>
            ))}
          </g>
        </svg>
      </div>
      {levelsShown.length > 1 ? (
        <ul className={styles.legend} aria-hidden="true">
          {levelsShown.map((label, level) => (
            <li key={label}>
              <svg width="14" height="14" viewBox="0 0 14 14">
                <circle className={styles[`node${level}`]} cx="7" cy="7" r="6" />
              </svg>
              {level === 0 ? label : `L${level} ${label}`}
            </li>
          ))}
        </ul>
      ) : null}
      <figcaption className={styles.caption}>
        {network.data.total_network_size === 0
          ? 'Your network appears here as friends join with your link.'
          : summary}
        {hidden > 0 ? ` (${hidden} more not drawn.)` : ''}
      </figcaption>
    </figure>
  );
}
