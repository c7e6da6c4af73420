// The member's real network, three levels deep, laid out by d3-hierarchy's tidy tree with the member
// ("You") at its head. A friend of level 1 is drawn with the initial of the name they gave; deeper
// levels are never named (the member does not know them). "You" is no level: levels are 1, 2, 3.
import { REFERRAL_CAPS_BY_LEVEL, type NetworkMember, type NetworkStats } from '@crw/core';
import { hierarchy, tree } from 'd3-hierarchy';
import { useEffect, useRef, useState, type RefObject } from 'react';
import styles from './community.module.css';

interface Node {
  id: string;
  level: number;
  member: NetworkMember | null;
  children: Node[];
}

const MAX_DRAWN = 300;
/** Drawn at its own size, never scaled to the screen: on a phone a wide network scrolls sideways
 * instead of shrinking to unreadable dots. Space per node side by side, per level down, margin. */
const NODE_GAP = 40;
const LEVEL_GAP = 72;
const MARGIN = 32;
const MIN_WIDTH = 280;

/** The three levels, in the words of the referral rewards. The member is not one of them. */
export const NETWORK_LEVELS = [
  { level: 1, label: 'Friends', key: 'level1' },
  { level: 2, label: 'Friends of friends', key: 'level2' },
  { level: 3, label: 'Their friends', key: 'level3' },
] as const;

/** How the member sees someone in their network: a friend by the name they gave (or their wallet
 * shortened), anyone deeper only by where they are. */
export function friendName(member: NetworkMember): string {
  if (member.level === 1) return member.name ?? member.short_address ?? 'A friend';
  return member.level === 2 ? 'Friend of a friend' : 'Further along your network';
}

function buildTree(
  rootId: string,
  items: NetworkStats['data']['hierarchy'],
): { root: Node; hidden: number } {
  const root: Node = { id: rootId, level: 0, member: null, children: [] };
  const byId = new Map<string, Node>([[rootId, root]]);
  const sorted = [...items].sort((a, b) => a.level - b.level).slice(0, MAX_DRAWN);
  for (const item of sorted) {
    const node: Node = { id: item.referred_id, level: item.level, member: item, children: [] };
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

/** The initial drawn in a friend's node: the first letter of their name, none without one. */
function initialOf(node: Node): string {
  if (node.level === 0) return 'You';
  const name = node.level === 1 ? node.member?.name : null;
  return name ? [...name][0]!.toUpperCase() : '';
}

export function networkSummary(network: NetworkStats): string {
  const counts = network.data.level_counts;
  return `Your network: ${counts.level1} at level 1, ${counts.level2} at level 2, ${counts.level3} at level 3.`;
}

/** The three levels with their counts and what each friend there earns, each with its colour in
 * the graph. */
export function NetworkLevels({ network }: { network: NetworkStats }) {
  const counts = network.data.level_counts;
  return (
    <ul className={styles.levels} aria-label="Network by level">
      {NETWORK_LEVELS.map(({ level, label, key }) => (
        <li key={level} className={`${styles.level} ${styles[`dot${level}`]}`}>
          <span className={styles.levelName}>{label}</span>
          <span className={styles.levelHint}>
            Level {level} · {REFERRAL_CAPS_BY_LEVEL[level - 1]} CAPs each
          </span>
          <span className={styles.levelCount}>{counts[key]}</span>
        </li>
      ))}
    </ul>
  );
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
          aria-label={networkSummary(network)}
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
                <title>{node.data.member ? friendName(node.data.member) : 'You'}</title>
                <circle
                  className={styles[`node${node.data.level}`]}
                  r={node.data.level === 0 ? 22 : 15}
                />
                {initialOf(node.data) ? (
                  <text
                    className={node.data.level === 0 ? styles.youLabel : styles.nodeLabel}
                    textAnchor="middle"
                    dy="0.35em"
                  >
                    {initialOf(node.data)}
                  </text>
                ) : null}
              </g>
            ))}
          </g>
        </svg>
      </div>
      {network.data.total_network_size === 0 || hidden > 0 ? (
        <figcaption className={styles.caption}>
          {network.data.total_network_size === 0
            ? 'Your network appears here as friends join with your link.'
            : `${hidden} more not drawn.`}
        </figcaption>
      ) : null}
    </figure>
  );
}
