import { Film, Info, LayoutDashboard, LogOut, User, Users } from 'lucide-react';
import { Link } from 'wouter';
import type { CurrentUser } from '@shared/api-types';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { useLogout } from '@client/features/auth/api/use-logout';
import { initials } from '@client/lib/utils';
import { NavLinkIcon } from './nav-link-icon';
import { VOICE_ONLY_LINK } from './nav-links';

/** The avatar menu: who is signed in, their pages, and Log out. */
export default function UserMenu({ user, isAdmin }: { user: CurrentUser; isAdmin: boolean }) {
  const logout = useLogout();
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        aria-label="Open user menu"
        className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground ring-offset-2 ring-offset-background transition-shadow outline-none hover:ring-2 hover:ring-primary/30 focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {initials(user.username)}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="truncate font-semibold">{user.username}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/profile">
            <User aria-hidden="true" /> My Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/saved">
            <Film aria-hidden="true" /> My Videos
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={VOICE_ONLY_LINK.href}>
            <NavLinkIcon href={VOICE_ONLY_LINK.href} /> {VOICE_ONLY_LINK.label}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/people">
            <Users aria-hidden="true" /> Manage People
          </Link>
        </DropdownMenuItem>
        {isAdmin && (
          <DropdownMenuItem asChild>
            <Link href="/admin">
              <LayoutDashboard aria-hidden="true" /> Admin Dashboard
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem asChild>
          <Link href="/about">
            <Info aria-hidden="true" /> About
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" disabled={logout.isPending} onSelect={() => logout.mutate()}>
          <LogOut aria-hidden="true" /> Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
