# Homebrew formula. This repository is its tap: Homebrew reads the Formula/ folder of a tap's
# repository, and a repository not named homebrew-* is tapped with its URL:
#
#   brew tap iapdoctor/iapdoctor https://github.com/iapdoctor/iapdoctor
#   brew install iapdoctor/iapdoctor/iapdoctor          # a bottle where the release has one
#   brew install --HEAD iapdoctor/iapdoctor/iapdoctor   # main, built from source
#
# Until a release is tagged there is only `--HEAD`. The release workflow
# (.github/workflows/release.yml) writes the release's source archive (`url`, `sha256`) and the
# bottles it built on macOS runners and attached to the release (`bottle do`) into this file on
# main (scripts/release-pack.py `formula` and `bottle`). `ruby scripts/formula-test.rb BIN_DIR`
# runs the `test do` block below against a built binary, without Homebrew.
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
    # A HEAD build's version is HEAD-<commit>; the binary prints its own release number.
    assert_match(version.head? ? /^\d+\.\d+\.\d+/ : version.to_s, shell_output("#{bin}/iapdoctor --version"))
    # A StoreKit configuration that sells one product ID twice: `check` must find it, exit 1
    # (findings at or above `error`) and name the rule and the place.
    (testpath/"Products.storekit").write <<~JSON
      { "identifier" : "1", "nonRenewingSubscriptions" : [], "settings" : {}, "subscriptionGroups" : [],
        "version" : { "major" : 4, "minor" : 0 },
        "products" : [
          { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "1", "localizations" : [],
            "productID" : "com.example.shop.coins", "referenceName" : "Coins", "type" : "Consumable" },
          { "displayPrice" : "1.99", "familyShareable" : false, "internalID" : "2", "localizations" : [],
            "productID" : "com.example.shop.coins", "referenceName" : "More coins", "type" : "Consumable" } ] }
    JSON
    output = shell_output("#{bin}/iapdoctor check #{testpath}/Products.storekit", 1)
    assert_match "error[storekit-duplicate-product-id]", output
    assert_match "Products.storekit:7:21", output
  end
end
