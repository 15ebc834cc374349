# Homebrew formula: builds iapdoctor from source with the Swift of Xcode or the Command Line
# Tools. Until a release is tagged it builds `main` (`--HEAD`); `scripts/release.sh --tag vX.Y.Z`
# adds the release's source archive (`url`, `sha256`) as the stable version.
#
#   brew install --HEAD --formula ./Formula/iapdoctor.rb      (from a checkout)
#   brew tap iapdoctor/iapdoctor https://github.com/iapdoctor/iapdoctor && brew install iapdoctor
class Iapdoctor < Formula
  desc "Finds out why StoreKit says your In-App Purchase products are invalid"
  homepage "https://github.com/iapdoctor/iapdoctor"
  head "https://github.com/iapdoctor/iapdoctor.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on macos: :ventura

  uses_from_macos "libxml2"
  uses_from_macos "zlib"

  def install
    ENV["IAPDOCTOR_UNCHECKED_EXCLUSIVITY"] = "1"
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "iapdoctor"
    bin.install ".build/release/iapdoctor"
    man1.install "docs/man/iapdoctor.1"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/iapdoctor --version")
    (testpath/"Products.storekit").write <<~JSON
      { "identifier" : "1", "nonRenewingSubscriptions" : [], "products" : [], "settings" : {},
        "subscriptionGroups" : [], "version" : { "major" : 4, "minor" : 0 } }
    JSON
    system bin/"iapdoctor", "check", testpath/"Products.storekit"
  end
end
