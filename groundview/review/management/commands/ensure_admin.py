import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the local admin login (once) and print how to sign in."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, **options):
        username = options["username"]
        password_file = settings.VAR_DIR / f"{username}-password"
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None or not password_file.exists():
            password = secrets.token_urlsafe(12)
            if user is None:
                user = User(username=username, is_staff=True, is_superuser=True)
            user.set_password(password)
            user.save()
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password)
            password_file.chmod(0o600)
        password = password_file.read_text().strip()
        self.stdout.write(
            f"Sign in at http://127.0.0.1:8000/ as {username!r} with password {password!r}"
        )
