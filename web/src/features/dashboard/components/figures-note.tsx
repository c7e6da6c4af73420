// The dashboard's REME figures come from the server's index of the chain; when that has
// not reached the chain lately, say plainly that they may be out of date.
import { chainFiguresMayBeOutdated, type ChainFiguresAsOf } from '@crw/core';
import callout from '../../../ui/callout.module.css';

function age(seconds: number): string {
  if (seconds < 120) return seconds === 1 ? '1 second ago' : `${seconds} seconds ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes ago`;
  return `${Math.round(seconds / 3600)} hours ago`;
}

export function FiguresNote({ asOf }: { asOf: ChainFiguresAsOf }) {
  if (!chainFiguresMayBeOutdated(asOf)) return null;
  const since =
    asOf.block === null || asOf.ageSeconds === null
      ? ''
      : ` They are as of block ${asOf.block}, checked ${age(asOf.ageSeconds)}.`;
  return (
    <p className={callout.warning} data-testid="figures-note">
      Your REME figures may be out of date: the blockchain network could not be reached lately.
      {since}
    </p>
  );
}
